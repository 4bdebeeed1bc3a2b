//go:build e2e

// Package wine is the end-to-end group of the Windows build under Wine,
// on the very bin/yui.exe, bin/yui-sim.exe and dist/Yui-setup.exe of
// `make package-windows` and `make package-installer` (the Linux yui-sim
// is the backend). The tests make one Wine prefix for the run. Run with
// `make e2e-wine`.
package wine
