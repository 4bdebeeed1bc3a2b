// Yui's KWin script (tools/desktop/kwin.js): KWin's facts of each
// top-level window sent to Yui over the session bus, as the same events
// as Yui's GNOME Shell extension sends (tools/desktop/facts.go). Yui loads
// it at run time through org.kde.kwin.Scripting (compositor_kwin.go),
// with its own bus name in YUI_SERVICE, and unloads it when it ends.
// Facts only: it moves, focuses and closes nothing. Plasma 5.27's API
// (clientList, clientAdded…) and Plasma 6's (windowList, windowAdded…).
const YUI_PATH = '/io/github/yui/KWin';
const YUI_IFACE = 'io.github.yui.Windows1';
const plasma6 = typeof workspace.windowList === 'function';

function yuiList() {
    return plasma6 ? workspace.windowList() : workspace.clientList();
}

function yuiActive() {
    return plasma6 ? workspace.activeWindow : workspace.activeClient;
}

// KWin's ids are UUIDs; Yui's are numbers: one per window, in order.
const yuiIds = new Map();
let yuiNext = 1;
function yuiId(w) {
    const key = String(w.internalId);
    if (!yuiIds.has(key))
        yuiIds.set(key, String(yuiNext++));
    return yuiIds.get(key);
}

function yuiMonitor(w) {
    if (plasma6)
        return workspace.screens.indexOf(w.output);
    return typeof w.screen === 'number' ? w.screen : 0;
}

function yuiFacts(w) {
    const g = w.frameGeometry;
    return {
        id: yuiId(w),
        xid: String(w.windowId || 0),
        title: String(w.caption || ''),
        app: String(w.resourceClass || w.desktopFileName || ''),
        x: Math.round(g.x), y: Math.round(g.y), width: Math.round(g.width), height: Math.round(g.height),
        monitor: yuiMonitor(w),
        scale: plasma6 && w.output ? w.output.scale : 1,
        minimized: !!w.minimized,
        maximized: false,
        fullscreen: !!w.fullScreen,
        focus: !!w.active,
        normal: !!(w.normalWindow || w.dialog),
        pid: w.pid || 0,
    };
}

// Each event numbered: Yui takes them in this order, though the bus
// hands its calls over at once (compositor_kwin.go).
let yuiSeq = 0;
function yuiSend(event) {
    event.seq = ++yuiSeq;
    callDBus(YUI_SERVICE, YUI_PATH, YUI_IFACE, 'Event', JSON.stringify(event));
}

function yuiOrder() {
    const order = workspace.stackingOrder || yuiList();
    return order.filter(w => w.managed !== false).map(yuiId);
}

function yuiWatch(w) {
    const send = () => yuiSend({kind: 'window', window: yuiFacts(w)});
    for (const name of ['frameGeometryChanged', 'captionChanged', 'fullScreenChanged', 'minimizedChanged',
        'activeChanged', 'desktopFileNameChanged']) {
        if (w[name] && w[name].connect)
            w[name].connect(send);
    }
}

const yuiAdded = plasma6 ? workspace.windowAdded : workspace.clientAdded;
const yuiRemoved = plasma6 ? workspace.windowRemoved : workspace.clientRemoved;
const yuiActivated = plasma6 ? workspace.windowActivated : workspace.clientActivated;

yuiAdded.connect(w => {
    yuiWatch(w);
    yuiSend({kind: 'window', window: yuiFacts(w)});
});
yuiRemoved.connect(w => {
    yuiSend({kind: 'closed', id: yuiId(w)});
    yuiIds.delete(String(w.internalId));
});
yuiActivated.connect(w => yuiSend({kind: 'focus', id: w ? yuiId(w) : ''}));
// Plasma 5.27 tells minimising through the workspace's signals too.
for (const name of ['clientMinimized', 'clientUnminimized'])
    if (!plasma6 && workspace[name])
        workspace[name].connect(w => yuiSend({kind: 'window', window: yuiFacts(w)}));
// A restack that changes nothing is not sent: an idle desktop sends nothing.
let yuiLastOrder = '';
if (workspace.stackingOrderChanged) {
    workspace.stackingOrderChanged.connect(() => {
        const order = yuiOrder();
        if (order.join(',') === yuiLastOrder)
            return;
        yuiLastOrder = order.join(',');
        yuiSend({kind: 'stack', order});
    });
}

// The screen's size in KWin's logical coordinates, those of the frames:
// with XWayland's it gives the factor between the two
// (tools/desktop/xscale.go).
function yuiAll() {
    const size = workspace.virtualScreenSize;
    return {kind: 'all', windows: yuiList().map(yuiFacts), focus: yuiActive() ? yuiId(yuiActive()) : '',
        order: yuiOrder(), stage: {width: Math.round(size.width), height: Math.round(size.height)}};
}

// An output added, removed or rescaled: everything told again with the
// new size.
if (workspace.virtualScreenSizeChanged)
    workspace.virtualScreenSizeChanged.connect(() => yuiSend(yuiAll()));

yuiList().forEach(yuiWatch);
yuiSend(yuiAll());
