// A stand-in of Plasma's org.kde.plasma.workspace.dialogs module for the
// KDE portal's e2e test (cmd/yui/e2e/wayland/look_test.go,
// TestKWinPortalLook): xdg-desktop-portal-kde makes its QML dialogs (the
// screenshot's among them) on this type even for a screenshot it asks
// nothing for, and Debian ships the module only in plasma-workspace, a
// whole Plasma desktop's worth of packages. This has the properties,
// signals and function the portal's dialogs use (plasma-workspace's
// components/dialogs/SystemDialog.qml names them) and shows a plain window.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Window 2.15

Window {
    id: root
    property string mainText: title
    property string subtitle: ""
    property string iconName: ""
    property list<QtObject> actions
    default property Item mainItem
    readonly property DialogButtonBox dialogButtonBox: buttons
    property alias standardButtons: buttons.standardButtons
    property bool acceptable: true
    property bool accepted: false
    signal accept()
    signal reject()
    visible: false
    width: 400
    height: 300

    function present() {
        show()
        requestActivate()
    }
    onAccept: { accepted = true; close() }
    onReject: close()

    DialogButtonBox {
        id: buttons
        anchors.bottom: parent.bottom
        anchors.right: parent.right
        onAccepted: root.accept()
        onRejected: root.reject()
    }
}
