// Yui's window facts (tools/desktop/gnome/core.js): what GNOME Shell knows
// of each top-level window — id, title, application id, frame rectangle,
// monitor, stacking order, minimized, maximized, full-screen, focus —
// published on the session bus as io.github.yui.Windows, and every change
// as a signal, for Yui's desktop layer (tools/desktop/compositor.go).
// Facts only: nothing here takes pictures of the screen or moves,
// focuses or closes a window. `yui desktop setup` joins this file with
// the shim of the running shell's module format (legacy.js for GNOME
// 43–44, esm.js for 45 and later) into the extension's extension.js.

const YUI_BUS_NAME = 'io.github.yui.Windows';
const YUI_OBJECT_PATH = '/io/github/yui/Windows';
const YUI_IFACE = `<node>
  <interface name="io.github.yui.Windows1">
    <method name="GetAll">
      <arg type="s" direction="out" name="facts"/>
    </method>
    <property name="Version" type="s" access="read"/>
    <signal name="Event">
      <arg type="s" name="facts"/>
    </signal>
  </interface>
</node>`;

// The window signals whose change is a new fact of that window.
// 'shown' is a new window's first showing (until then it is hidden,
// which the facts tell as minimized).
const YUI_WINDOW_SIGNALS = ['position-changed', 'size-changed', 'shown', 'notify::title', 'notify::wm-class',
    'notify::minimized', 'notify::fullscreen', 'notify::maximized-horizontally',
    'notify::maximized-vertically', 'notify::gtk-application-id', 'workspace-changed'];

class YuiWindowsService {
    constructor(Gio, GLib, Meta, version) {
        this._Gio = Gio;
        this._GLib = GLib;
        this._Meta = Meta;
        this.Version = version;
        this._windows = new Map(); // Meta.Window → its signal ids
        this._displayIds = [];
        this._workspaceId = 0;
        this._monitors = null; // the monitor manager and its signal id
        this._dbus = null;
        this._ownerId = 0;
        this._lastOrder = '';
        this._sent = new Map(); // Meta.Window → the facts last sent, as JSON
    }

    enable() {
        this._dbus = this._Gio.DBusExportedObject.wrapJSObject(YUI_IFACE, this);
        this._dbus.export(this._Gio.DBus.session, YUI_OBJECT_PATH);
        const display = global.display;
        this._displayIds = [
            display.connect('window-created', (d, w) => { this._track(w); this._emitWindow(w); }),
            display.connect('notify::focus-window', () => this._emit({kind: 'focus', id: this._focusId()})),
            display.connect('restacked', () => this._emitStack()),
        ];
        // Windows of another workspace are out of sight, as X11's
        // unmapped ones: a switch tells each window's facts again.
        this._workspaceId = global.workspace_manager.connect('active-workspace-changed',
            () => [...this._windows.keys()].forEach(w => this._emitWindow(w)));
        // A monitor added, removed or rescaled changes the screen's size
        // and maybe the factor between the shell's coordinates and
        // XWayland's: everything is told again with the new size
        // (tools/desktop/xscale.go).
        const manager = global.backend && global.backend.get_monitor_manager
            ? global.backend.get_monitor_manager() : this._Meta.MonitorManager.get();
        this._monitors = [manager, manager.connect('monitors-changed', () => this._emit(this._all()))];
        for (const actor of global.get_window_actors())
            this._track(actor.meta_window);
        this._ownerId = this._Gio.bus_own_name_on_connection(this._Gio.DBus.session, YUI_BUS_NAME,
            this._Gio.BusNameOwnerFlags.NONE, null, null);
    }

    disable() {
        if (this._ownerId)
            this._Gio.bus_unown_name(this._ownerId);
        this._ownerId = 0;
        for (const id of this._displayIds)
            global.display.disconnect(id);
        this._displayIds = [];
        if (this._workspaceId)
            global.workspace_manager.disconnect(this._workspaceId);
        this._workspaceId = 0;
        if (this._monitors)
            this._monitors[0].disconnect(this._monitors[1]);
        this._monitors = null;
        for (const [w, ids] of this._windows)
            for (const id of ids)
                w.disconnect(id);
        this._windows.clear();
        this._sent.clear();
        this._lastOrder = '';
        if (this._dbus)
            this._dbus.unexport();
        this._dbus = null;
    }

    // GetAll answers every window's facts, the focused one's id, the
    // stacking order (bottom first) and the screen's size in the shell's
    // coordinates, those of the frames.
    GetAll() {
        return JSON.stringify(this._all());
    }

    _all() {
        const windows = this._listed().map(w => this._facts(w));
        const [width, height] = global.display.get_size();
        return {kind: 'all', windows, focus: this._focusId(), order: this._stackIds(), stage: {width, height}};
    }

    _track(w) {
        if (!w || this._windows.has(w))
            return;
        const ids = [];
        for (const name of YUI_WINDOW_SIGNALS) {
            try {
                ids.push(w.connect(name, () => this._emitWindow(w)));
            } catch (e) {
                // A signal this shell's version lacks: its facts come with the others.
            }
        }
        ids.push(w.connect('unmanaged', () => {
            const mine = this._windows.get(w) || [];
            this._windows.delete(w);
            this._sent.delete(w);
            for (const id of mine)
                w.disconnect(id);
            this._emit({kind: 'closed', id: this._idOf(w)});
        }));
        this._windows.set(w, ids);
    }

    // _listed is the windows a person sees as top-level windows: not the
    // shell's own override-redirect menus and tooltips.
    _listed() {
        return [...this._windows.keys()].filter(w => !w.is_override_redirect());
    }

    _idOf(w) {
        return String(w.get_id());
    }

    _focusId() {
        const f = global.display.focus_window;
        return f ? this._idOf(f) : '';
    }

    _stackIds() {
        return global.display.sort_windows_by_stacking(this._listed()).map(w => this._idOf(w));
    }

    _facts(w) {
        const r = w.get_frame_rect();
        const monitor = w.get_monitor();
        const x11 = w.get_client_type() === this._Meta.WindowClientType.X11;
        return {
            id: this._idOf(w),
            // The X window of an XWayland window (its description is
            // "0x…"), so that Yui knows its own windows and X11's ids stay.
            xid: x11 ? String(parseInt(w.get_description(), 16) || 0) : '0',
            title: w.get_title() || '',
            app: w.get_wm_class() || w.get_gtk_application_id() || w.get_sandboxed_app_id() || '',
            x: r.x, y: r.y, width: r.width, height: r.height,
            monitor,
            scale: monitor >= 0 ? global.display.get_monitor_scale(monitor) : 1,
            minimized: w.minimized || w.is_hidden() ||
                !w.located_on_workspace(global.workspace_manager.get_active_workspace()),
            maximized: w.maximized_horizontally && w.maximized_vertically,
            fullscreen: w.is_fullscreen(),
            focus: w.has_focus(),
            normal: w.get_window_type() === this._Meta.WindowType.NORMAL ||
                w.get_window_type() === this._Meta.WindowType.DIALOG,
            pid: w.get_pid(),
        };
    }

    // _emitStack tells a new stacking order; the shell restacks without a
    // change too (a window kept above raised again), which is not sent:
    // an idle desktop sends nothing.
    _emitStack() {
        const order = this._stackIds();
        const key = order.join(',');
        if (key === this._lastOrder)
            return;
        this._lastOrder = key;
        this._emit({kind: 'stack', order});
    }

    // _emitWindow tells a window's facts when they changed: the shell
    // notifies without a change too (a property set to what it was),
    // which is not sent.
    _emitWindow(w) {
        if (!this._windows.has(w) || w.is_override_redirect())
            return;
        const facts = this._facts(w);
        const key = JSON.stringify(facts);
        if (this._sent.get(w) === key)
            return;
        this._sent.set(w, key);
        this._emit({kind: 'window', window: facts});
    }

    _emit(event) {
        if (this._dbus)
            this._dbus.emit_signal('Event', new this._GLib.Variant('(s)', [JSON.stringify(event)]));
    }
}
