package petwindow

// Host is the app's side of a pet window: the right-click menu's items
// and what the window tells the app as the user handles the pet. Its
// methods are called on the Fyne main goroutine and must not block it.
// Options.Host nil is a host that does nothing.
//
// Optional abilities are found on it by type assertion, as net/http finds
// http.Flusher on a ResponseWriter: Reconnecter and DoNotDisturber add
// their items to the menu.
type Host interface {
	// OpenMessages and OpenSettings are the menu's Messages and Settings
	// items; Quit is its Quit.
	OpenMessages()
	OpenSettings()
	Quit()
	// OpenPermissions is the watching sign's tap: the app opens the
	// settings where the screen permissions are.
	OpenPermissions()
	// ShortcutPressed runs first when the global shortcut is pressed (the
	// app shows every hidden pet), before this pet's composer opens.
	ShortcutPressed()
	// PetGrabbed is the user starting to drag the pet (the body tool's
	// running action ends).
	PetGrabbed()
	// PetDropped is the user dropping the pet, after its position was
	// saved (gravity lets it fall).
	PetDropped()
	// MonitorsChanged is a new monitor layout, after the window was
	// placed for it (the body tool reads the monitors again).
	MonitorsChanged()
}

// Reconnecter is a Host that offers the menu's Reconnect item while the
// connection is not ready: the user's way out of a rejected key or a
// long backoff.
type Reconnecter interface {
	Reconnect()
}

// DoNotDisturber is a Host that has the do-not-disturb switch: the menu
// shows it as a checked item.
type DoNotDisturber interface {
	DoNotDisturb() bool
	SetDoNotDisturb(on bool)
}

// noHost is the Host of a window given none.
type noHost struct{}

func (noHost) OpenMessages()    {}
func (noHost) OpenSettings()    {}
func (noHost) Quit()            {}
func (noHost) OpenPermissions() {}
func (noHost) ShortcutPressed() {}
func (noHost) PetGrabbed()      {}
func (noHost) PetDropped()      {}
func (noHost) MonitorsChanged() {}
