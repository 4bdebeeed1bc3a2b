; Yui's Windows installer, built by `make package` with makensis:
;   makensis -DVERSION=0.1.0 -DEXE=bin/yui.exe -DICON=yui.ico -DOUTFILE=dist/Yui-setup.exe installer.nsi
;
; A per-user install: no administrator rights, the program under
; %LOCALAPPDATA%\Programs\Yui, a Start-menu shortcut, the uninstaller in
; Apps & features (the per-user Uninstall key) and, when chosen, the Run
; value start at login uses (the very value the App tab's switch writes:
; "yui" under HKCU\...\Run). Uninstalling removes the program, the shortcut,
; the Uninstall key and the Run value; the user's settings (%APPDATA%\yui) and
; logs (%LOCALAPPDATA%\yui) stay unless "Remove my settings" is chosen (/REMOVESETTINGS when silent).
;
; Silent: Yui-setup.exe /S [/AUTOSTART] [/D=folder]; uninstall.exe /S [/REMOVESETTINGS].

; yui.exe is amd64 only, and so is the installer: it runs where Yui runs
; (and under a 64-bit-only Wine, which cannot start a 32-bit program).
Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma
RequestExecutionLevel user

!ifndef VERSION
  !error "VERSION is not defined (makensis -DVERSION=...)"
!endif
!ifndef EXE
  !error "EXE is not defined: the yui.exe to install"
!endif
!ifndef ICON
  !error "ICON is not defined: the .ico of the installer and uninstaller"
!endif
!ifndef OUTFILE
  !define OUTFILE "Yui-setup.exe"
!endif

!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Yui"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
; The Run value's name: app/autostart.Name.
!define RUN_VALUE "yui"

!include "MUI2.nsh"
!include "FileFunc.nsh"
!include "LogicLib.nsh"
!include "Sections.nsh"

Name "Yui"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Yui"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
BrandingText "Yui ${VERSION}"
VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "Yui"
VIAddVersionKey "FileDescription" "Yui installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "Yui contributors"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC
!define MUI_FINISHPAGE_RUN "$INSTDIR\yui.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start Yui now"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

Section "Yui" SecProgram
  SectionIn RO
  SetOutPath "$INSTDIR"
  File "/oname=yui.exe" "${EXE}"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortCut "$SMPROGRAMS\Yui.lnk" "$INSTDIR\yui.exe" "" "$INSTDIR\yui.exe" 0

  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "Yui"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "Yui"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\yui.exe,0"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section /o "Start Yui when I log in" SecAutostart
  WriteRegStr HKCU "${RUN_KEY}" "${RUN_VALUE}" '"$INSTDIR\yui.exe"'
SectionEnd

Function .onInit
  ; /AUTOSTART picks the start-at-login option on a silent install.
  ${GetParameters} $0
  ClearErrors
  ${GetOptions} $0 "/AUTOSTART" $1
  ${IfNot} ${Errors}
    !insertmacro SelectSection ${SecAutostart}
  ${EndIf}
FunctionEnd

Section "un.Yui" UnSecProgram
  SectionIn RO
  Delete "$SMPROGRAMS\Yui.lnk"
  DeleteRegValue HKCU "${RUN_KEY}" "${RUN_VALUE}"
  DeleteRegKey HKCU "${UNINST_KEY}"
  Delete "$INSTDIR\yui.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
SectionEnd

Section /o "un.Remove my settings, history and logs" UnSecSettings
  RMDir /r "$APPDATA\yui"
  RMDir /r "$LOCALAPPDATA\yui"
SectionEnd

Function un.onInit
  ${GetParameters} $0
  ClearErrors
  ${GetOptions} $0 "/REMOVESETTINGS" $1
  ${IfNot} ${Errors}
    !insertmacro SelectSection ${UnSecSettings}
  ${EndIf}
FunctionEnd
