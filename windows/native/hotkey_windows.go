//go:build windows

package native

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	procRegisterHotKey    = user32.NewProc("RegisterHotKey")
	procUnregisterHotKey  = user32.NewProc("UnregisterHotKey")
	procGetMessage        = user32.NewProc("GetMessageW")
	procPeekMessage       = user32.NewProc("PeekMessageW")
	procPostThreadMessage = user32.NewProc("PostThreadMessageW")
	procGetAsyncKeyState  = user32.NewProc("GetAsyncKeyState")
)

const (
	modAlt      = 0x0001
	modControl  = 0x0002
	modNoRepeat = 0x4000
	vkY         = 0x59
	wmQuit      = 0x0012
	wmHotkey    = 0x0312
	pmNoRemove  = 0x0000
	hotkeyID    = 1
	// releasePoll is how often a held shortcut's key is checked: Windows
	// sends no message when a hot key is released.
	releasePoll = 20 * time.Millisecond
)

// winMsg is the Win32 MSG structure.
type winMsg struct {
	hwnd    uintptr
	message uint32
	wParam  uintptr
	lParam  uintptr
	time    uint32
	pt      struct{ x, y int32 }
	private uint32
}

// hotkey is the Ctrl+Alt+Y hot key: a locked OS thread that registered it
// and runs a message loop until stop.
type hotkey struct {
	thread  uint32
	done    chan struct{}
	closing atomic.Bool
	mu      sync.Mutex
	onUp    func()
}

// startHotkey registers the hot key and returns once the registration
// succeeded or failed (another program may hold Ctrl+Alt+Y).
func startHotkey(onPress func()) (*hotkey, error) {
	h := &hotkey{done: make(chan struct{})}
	started := make(chan error, 1)
	go h.run(onPress, started)
	if err := <-started; err != nil {
		<-h.done
		return nil, err
	}
	return h, nil
}

func (h *hotkey) run(onPress func(), started chan<- error) {
	defer close(h.done)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if ok, _, err := procRegisterHotKey.Call(0, hotkeyID, modControl|modAlt|modNoRepeat, vkY); ok == 0 {
		started <- fmt.Errorf("win32: RegisterHotKey Ctrl+Alt+Y: %w", err)
		return
	}
	defer procUnregisterHotKey.Call(0, hotkeyID)
	h.thread = windows.GetCurrentThreadId()
	var m winMsg
	// The documented way to give the thread its message queue now, so
	// that stop's WM_QUIT cannot be posted before there is one.
	procPeekMessage.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0, pmNoRemove)
	started <- nil
	for {
		// 0 is WM_QUIT (stop), -1 an error: either ends the loop.
		if r, _, _ := procGetMessage.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0); int32(r) <= 0 {
			return
		}
		if m.message == wmHotkey && m.wParam == hotkeyID {
			onPress()
			h.waitRelease()
		}
	}
}

// waitRelease calls the release callback once Y is up again (push-to-talk
// holds the shortcut while the user speaks).
func (h *hotkey) waitRelease() {
	for !h.closing.Load() {
		if s, _, _ := procGetAsyncKeyState.Call(vkY); s&0x8000 == 0 {
			break
		}
		time.Sleep(releasePoll)
	}
	h.mu.Lock()
	f := h.onUp
	h.mu.Unlock()
	if f != nil && !h.closing.Load() {
		f()
	}
}

func (h *hotkey) setOnRelease(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.onUp = f
}

// stop ends the message loop, which unregisters the hot key, and waits.
func (h *hotkey) stop() {
	h.closing.Store(true)
	procPostThreadMessage.Call(uintptr(h.thread), wmQuit, 0, 0)
	<-h.done
}
