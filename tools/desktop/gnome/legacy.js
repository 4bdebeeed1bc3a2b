// GNOME Shell 43–44's module format (tools/desktop/gnome/legacy.js): the
// shell calls init() and enables what it returns.
'use strict';
const {Gio, GLib, Meta} = imports.gi;

/* YUI-CORE */

function init() {
    let service = null;
    return {
        enable() {
            service = new YuiWindowsService(Gio, GLib, Meta, YUI_VERSION);
            service.enable();
        },
        disable() {
            service.disable();
            service = null;
        },
    };
}
