package main

// idleDesign is the report's account of where an idle pet's time goes
// and what the pet window does about it: fixed text, beside the figures
// that hold it to account.
const idleDesign = `### Where an idle pet's time goes, and the design

Measured with the pet alone under Xvfb's software GL, an idle pet spends its time in three places:

- **The animation runner.** The idle motion (8 frames at 4 frames a second, breathing and a blink)
  played through a ` + "`fyne.Animation`" + `, and Fyne's runner ticks at the display's rate, 60 times a
  second, while any animation is registered: 60 main-loop turns a second for 4 frame changes.
- **Each frame change** repaints the whole window (the driver has no partial repaint) and, when the
  silhouette moved, sends the window shape again (an X round trip and an Expose the driver answers
  with another repaint).
- **The pointer** polled for the eyes' gaze every 150 ms.

What the pet window does instead:

- **It wakes only when a frame changes.** The character's motions run on one ` + "`FrameClock`" + ` per process
  (` + "`windows/petwindow/clock.go`" + `): one timer for every pet, armed for the next frame due, its
  callbacks handed to the UI goroutine in one batch (due times are rounded to 10 ms, so pets whose
  frames fall together change them in one wake-up). An idle pet wakes twice per frame change — the
  shape a display frame ahead of its image, so the X server's Expose lands in the same repaint — about
  8 times a second instead of 60; a still pet, a hidden one and one covered by a fullscreen window
  (do-not-disturb hides it) arm nothing.
- **The shape is not resent** when the silhouette did not change: the input shape covers every frame
  of the motion playing, and the bounding shape is compared with the last one sent.
- **The idle cycle slows while nobody watches it:** at a third of its rate while the user is away
  (` + "`user_away`" + `), and at half on a desktop that asks for reduced motion
  (` + "`pet_idle_pace`" + `); breathing and blinking still show.
- **Three pets share** the frame clock, the process's X connection, and the decoded, scaled images of
  a character (one copy however many pets show it, while any does).
- **Ready first:** the connection is opened before the window is shown, so ` + "`ws_ready`" + ` does not wait
  for the window, the speech engine check or the character's scaling.

`
