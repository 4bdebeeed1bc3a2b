package main

// idleDesign is the report's account of where an idle pet's time goes
// and what the pet window does about it: fixed text, beside the figures
// that hold it to account.
const idleDesign = `### Where an idle pet's time goes, and the design

Fyne's main loop ticks 60 times a second for any window, a bare one included (its wake-ups above
are mostly that tick), so neither the loop nor a registered ` + "`fyne.Animation`" + ` costs an idle pet
anything a bare window does not pay. Measured under one Xvfb, three ` + "`yui`" + ` builds side by side
over 40 s: with the idle motion stopped the pet used 1.2x the bare window's CPU; with it playing
(then 8 frames at 4 a second) 1.7x, of which the window shape sent for each frame was about a
quarter and the repaint of the whole window (software GL, no partial repaint) the rest. The cost is
the frame changes, so:

- **The idle cycle changes frame at most twice a second** (` + "`maxIdleFPS`" + ` in
  ` + "`windows/petwindow/frames.go`" + `, for any pack; the built-in Yui's idle breath is drawn at 2 frames a
  second, a 4 s breath with its blink). Breathing and blinking stay.
- **Slower while nobody watches:** at a third of that while the user is away (` + "`user_away`" + `), at
  half on a desktop that asks for reduced motion (` + "`pet_idle_pace`" + `).
- **Nothing while hidden:** a hidden pet, and one hidden by do-not-disturb while a fullscreen window
  covers its monitor, registers no animation at all.
- **The shape is not resent** when the silhouette did not change (the bounding shape is compared with
  the last one sent, and the input shape covers every frame of the motion playing), and a frame's
  shape goes a display frame ahead of its image, so the X server's Expose lands in the same repaint.
- **Three pets share** Fyne's one loop, the process's X connection, and the decoded, scaled images
  of a character (one copy however many pets show it, while any does); the pet's controller keeps
  only the pack's outline, not its full-size images.
- **Ready first:** the connection opens as soon as the window shows, before the character is
  scaled to it, and the start-up's memory release runs off the UI goroutine: ` + "`ws_ready`" + ` waits neither
  for the scaling nor for the speech engine's check.

`
