// GNOME Shell 45 and later's ES module format (tools/desktop/gnome/esm.js):
// the shell makes the default export and enables it.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

/* YUI-CORE */

export default class YuiWindowsExtension extends Extension {
    enable() {
        this._service = new YuiWindowsService(Gio, GLib, Meta, YUI_VERSION);
        this._service.enable();
    }

    disable() {
        this._service.disable();
        this._service = null;
    }
}
