//go:build windows

package motionpref

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

var procSystemParametersInfo = windows.NewLazySystemDLL("user32.dll").NewProc("SystemParametersInfoW")

// spiGetClientAreaAnimation asks whether client-area animations are on
// (Settings > Accessibility > Visual effects > Animation effects).
const spiGetClientAreaAnimation = 0x1042

// Reduced reports whether the user turned animation effects off.
func Reduced() bool {
	var on int32
	r, _, _ := procSystemParametersInfo.Call(spiGetClientAreaAnimation, 0, uintptr(unsafe.Pointer(&on)), 0)
	return r != 0 && on == 0
}
