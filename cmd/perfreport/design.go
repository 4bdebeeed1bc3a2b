package main

// idleDesign is the report's account of where an idle pet's time goes
// and what the pet window does about it: fixed text, beside the figures
// that hold it to account.
const idleDesign = `### Where an idle pet's time goes, and the design

**The pets measured here breathe.** The pointer stands in a corner no pet is near. Until this run
it stood in the middle of the screen, near the one pet, which looked at it: a gaze frame is a
still, so that pet did not breathe, and the runs before this one measured a pet that did not
change frame (1.07x to 1.16x the bare window's CPU, 1.14x to 1.18x its wake-ups). A breathing
pet repaints its window twice a second, which a bare window that never changes does not; side
by side, runs of this build gave 1.26x to 1.45x the bare window's CPU. That repaint is the floor
of an idle pet's CPU over a window that does not move, as the ten-pet section shows per window
with pets that do not breathe: it misses the 1.2x goal by design.

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
  The shape is worked out in buffers reused from frame to frame: a breathing pet allocated about
  80 KB a second for it, most of what an idle pet allocated at all.
- **One pointer poller, and quiet when the pointer is:** the eyes follow the pointer from the X
  connection's one poller, started once the window's shim is bound (started earlier, each pet
  polled on its own: three pollers for three pets, each reading a round trip to the X server and a
  wake-up of the UI goroutine per pet). A reading reaches the UI when the pointer moved, and
  otherwise once 400 ms went by, for the occasional glance around. Measured side by side, three pets
  went from 1.76x to 1.44x the bare window's CPU with this. Once the pointer has stood still for
  about a second the poller reads it every 450 ms instead of every 150 ms, and is back at full pace
  with the first reading that sees it move (` + "`pointerPace`" + `, tools/xconn/pointer.go).
- **Few requests to the X server.** Every request through xgb waits for xgb's sender goroutine,
  which takes a sequence number from a second one, and its reply comes through a third: a round
  trip wakes four goroutines. A Go execution trace of an idle pet (` + "`yui --trace FILE`" + `, set
  beside ` + "`barewindow -trace FILE`" + `, read with ` + "`go tool trace -d=parsed`" + `) named them: besides
  Fyne's 60 Hz loop, which the bare window has too, an idle pet's goroutines woke about 90 times a
  second more than the bare window's, nearly all for X requests. So do-not-disturb reads only
  what it decides on (seven requests a window instead of twelve, the active window found in the
  list, not read again: ` + "`WindowStates`" + ` in tools/desktop/x11_query.go), and without a window manager
  only the root's mapped children are read in full (each toolkit keeps unmapped helper windows
  there); the life scheduler's look at the active window every second reads its id, title and
  application in four requests, not thirteen (` + "`ActiveName`" + `); the audio device's watcher does not
  tick while the device is suspended (pet/audio/device.go). Side by side under one Xvfb, a pet's
  wake-ups went from 1.30x to 1.13x the bare window's with these.
- **The software GL driver draws in the thread that asks.** Mesa's llvmpipe (Xvfb, virtual
  machines, desktops without a GPU driver) starts a rasterizer thread a core for every GL
  context, and woke each of them for every frame an idle pet breathes, for a window one thread
  draws in less time than the hand-over takes: Yui sets ` + "`LP_NUM_THREADS=0`" + ` for its windows'
  contexts unless the user set it (app/softgl.go): two threads fewer a window, none of them
  woken by a frame. In one pair of runs side by side, a breathing pet went from 1.32x to 1.20x
  the bare window's CPU and from 1.25x to 1.17x its wake-ups; further runs of this build moved
  between 1.26x and 1.45x in CPU and 1.16x and 1.22x in wake-ups with the machine's load.
- **Do-not-disturb reads the windows after a change, not every two seconds.** The desktop layer
  counts the root window's structure and property events (a top-level window made, mapped,
  moved, resized, restacked or destroyed; the active window; the client lists:
  ` + "`Changes`" + ` in tools/desktop/x11_changes.go), and do-not-disturb reads the windows again only when the
  count moved, or 10 s after its last read, for a window made fullscreen where it stood
  (tools/desktop/quiet.go). On an idle desktop that read was most of what an idle pet asked of the
  X server: in a trace of a pet beside a bare window, the pet's goroutines woke 146 times a second
  against the bare window's 73, and 112 times with this.
- **Three pets share** Fyne's one loop, the process's X connection, and the decoded, scaled images
  of a character (one copy however many pets show it, while any does); the pet's controller keeps
  only the pack's outline, not its full-size images.
- **Ready first:** the connection opens as soon as the window shows, and the character is scaled to
  the window off the UI goroutine, as is the start-up's memory release: ` + "`ws_ready`" + ` waits neither for
  the scaling nor for the speech engine's check, and the UI goroutine is free for the first clicks.
  Opened before the window, the connection was ready 76 ms before it showed, but ` + "`ws_ready`" + ` then
  announced a pet that did not take clicks yet (the UI loop had not started), and do-not-disturb did
  not know the pet's monitor.

### Where an idle pet's memory goes

Fyne gives every window its own GL context. Under a software GL (Mesa's llvmpipe, as under Xvfb)
a window costs its process several MiB before it draws anything: the context with its compiled
shaders, its back buffer, and the shared-memory image it is shown through. The row of three bare
windows above measures that floor in the same run; each pet past the first costs it and what the
pet draws on top. Measured side by side under one Xvfb, each pet past the first went from 10.4 to
8.0 MiB with three changes to what a pet window holds:

- **One texture, not one a frame.** The body draws its frames through one canvas image whose
  pixels change with the frame (` + "`windows/petwindow/body.go`" + `); the driver swaps the texture at the
  repaint the frame change costs anyway. A texture for each idle frame in each window's own
  context cost a pet about a megabyte; idle CPU did not move.
- **Decoded frames shared.** The frames that may show soon (the motion playing, the idle motion,
  the stills shown) are decoded once per process and shared by every pet showing the character
  at that size (` + "`packedImage.pixels`" + `, counted, let go when the last pet drops them).
- **No depth or stencil buffer.** Fyne's painter uses neither, but GLFW asks for both by default:
  a buffer the size of the window in every window, cleared at every repaint
  (` + "`native.LeanFramebuffers`" + `).

What is left past the floor is the pet's own drawing (its current frame, its text) and the
controller; the fixed part of one process (fonts, the binary, the audio context) is paid once.
Read from ` + "`/proc/<pid>/smaps`" + ` of one and three pets beside one and three bare windows, a pet past
the first adds about half a MiB more than a bare window past the first to the C heap, where the GL
driver keeps its textures (the character's frame, 192x256 pixels: 192 KiB) and the shader
variants it compiles for what a window draws (the pet's backdrop and its pill's rounded
rectangle; the bare window draws one label), and within a few hundred KiB of what a bare window
adds to the rest, from run to run (its window is smaller, 360x563 pixels against 384x600, and so
are its buffers). That half MiB is the character on the screen; the three-pet figure above
measures it over two pets, where the ten-window figure spreads each process's one-off growth
over nine.

- **A tighter garbage collector once started.** The live heap of an idle process is small (about
  12 MiB, most of it the fonts), and what stays resident is the heap the collector lets grow
  between collections: at 25% over the live heap instead of Go's 100% (` + "`tuneGC`" + `), three
  pets held about 3 MiB less than at 50%, measured side by side.
- **No hidden window for the tray.** On a desktop with a tray (a D-Bus session bus on Linux;
  Windows), Fyne's tray menu also makes a hidden window to hear macOS's dock, and with it one more
  GL context: measured side by side under a session bus, one pet took 153.8 MB with it and 144.3
  MB without. Yui drives the tray library under Fyne's tray itself (` + "`app/systray.go`" + `). The runs
  above have no session bus, so no tray: this saving does not show in them.

`

// latencyDesign says what sets the floor of each of Yui's parts.
const latencyDesign = `### What Yui's parts are, and their floors

- **Detection** (end of speech to the upload received): the voice detector's hangover is 500 ms, so that
  a pause between words does not end a turn; but once the speech has paused for the utterance's tail
  (200 ms, room for an unvoiced "s" or "t" after the last voiced frame), the audio the utterance will
  hold if it ends there goes to the transcription server at once, and its text is used when the hangover
  confirms the end (` + "`pet/voice/early.go`" + `; a pause the speech goes past cancels it). Before,
  the upload left when the hangover ended, and a turn paid the hangover and the transcription one after
  the other (about 550 + 300 ms here); now they overlap, and the turn starts at the later of the two.
  So the floor of Yui's share is the hangover less the transcription time (500 − 300 ms against this
  server), or the tail when the server is slower: a 400 ms hangover would split slow speech in noise
  in two (` + "`TestVADBoundariesOnSpeechInNoise`" + `, speech-slow.wav), and a 160 ms tail split a
  follow-up in two (` + "`TestRoomWakeWord`" + `). With the hangover's rest spent waiting, the next part
  ("to the chat request") holds it when the transcription came back first. The recording plays through
  ` + "`--voice-in`" + ` one 20 ms block a block's time after the start, as a microphone delivers it (timed
  from the block before, each came a little late, and the end of a 3 s recording about 20 ms late:
  time the benchmark counted as Yui's).
- **Request**: from the transcript, or from the Enter key (pressed through XTEST, so no xdotool start-up
  counts, once the pet window shows the typed text, as a person presses it), to the chat request at the server:
  Fyne's event loop takes input 60 times a second, so the key waits up to 16.7 ms for it, then the turn
  is built and sent on a kept-alive connection (about a millisecond). Pressed the moment xdotool had
  typed the last character, the key also waited for the repaint of that character, and the figure was
  15 ms longer. The typed paths are the median of five turns: the key's wait for the loop moves each
  turn's figure by up to 16.7 ms.
- **Handoff**: the token that ends the first sentence to the speech request (` + "`transport/request/sentence.go`" + `).
- **Playback**: the speech server's first audio to the first sample at the output: no buffering beyond
  the output's period. The benchmark's output is the no-device one (` + "`pet/audio/paced.go`" + `), which
  pulls the mix every 20 ms and, since this run's change, also the moment a sentence's first samples
  come (` + "`Player.Start`" + ` wakes it again then): it used to hand them on at its next period, up to 20 ms
  later. A sound card's output pulls on its own period (10 ms or so under PulseAudio), which is that
  device's floor.

The character's filler line plays while the model thinks, so the first sound comes sooner than the
reply's; the reply cuts it off at its first render.
`

// firstFrameDesign says where a pet's first frame waits.
const firstFrameDesign = `### Where the pet's first frame waits

A bare window's first frame pays the process start, Fyne's driver and GL context, and the fonts it
measures its text with (Fyne scans the system's fonts for fallbacks: with the CJK fonts installed, a
CFF face is parsed). A pet pays those and its own start-up, which now runs beside them
(app/preload.go). The machine has two cores: the font scan, about 145 ms of one core, is the longest
wait before the pet's window can be built, so what the first frame does not need is kept off the
other core while the scan runs, and what it needs is made cheap:

* **The fonts first**: the app and its theme are made right after the instance check, before the
  settings, the log and the keyring, and the regular face and the system's fallback fonts load off
  the UI goroutine from then on (only the regular style: with the CJK fonts each other style holds
  15 MiB of tables of its own, which a pet that never draws it should not hold).
* **Its character** is read when the settings are, on its own goroutine, and only the idle motion's
  first frame and the neutral face are decoded before the window shows (` + "`character.LoadQuick`" + `);
  the other images, the idle motion's other frames among them, decode, and every image is scaled
  to the window, after the first frame (the session's ` + "`scalePack`" + `). Each image file is read
  into a buffer of its size (growing one from 512 bytes copied the pack's 1.6 MB a dozen times).
* **The audio device opens once the font scan has ended** (app/start.go): the pets need it only when
  their windows show and their speech starts, and its library's start took a core from the scan for
  about 30 ms. The desktop's X connection and the motion preference open beside the driver, and are
  waited for where they are used. The device starts suspended and wakes with the first sound.
* **What the window draws first is cheap**: the window's shape reads the frame's alpha byte by byte
  (image/draw has no fast path from NRGBA to alpha: 20 ms of the UI goroutine, before the window);
  the first frames, the pack's full-size images until the scaled ones come, are filtered by the GL
  driver rather than scaled on the CPU by Fyne (16 ms of the first paint); and the windows' icon is
  128 px, not the 512 px app icon each window decoded and sent to the X server as it was made.
* **One language parsed**: English at init and the language in use when it is picked
  (windows/i18n), where all six translation files were parsed at init (23 ms before main; 3.6 ms
  now).

Timed inside starts under Xvfb (process start = 0), medians: ` + "`Run`" + ` begins at 38 ms and the font
scan at 43 ms; the scan ends at about 235 ms (a bare window's scan, alone on the machine, takes
145 ms: the driver's start, the character and the desktop still share the two cores with it); the
pet window is built 8 ms later, and shown, with its first frame painted, about 255 ms after that,
where a bare window's showing takes 220 ms (its GL window and context are the same; the pet's first
paint also fills its backdrop and its status pill). Before these changes the scan ended at about
270 ms, the window took 25 ms more to build, and the first frame came 118–160 ms after the bare
window's.

`

// vrmImport is the report's account of the VRM import's cost: fixed text;
// its figures are the goal table's "VRM import" rows.
const vrmImport = `## VRM import

A VRM model is posed and drawn once, at import (docs/product.md §14), so its cost is the import's and
an idle VRM pet costs what any pack costs. ` + "`BenchmarkImport5k`" + ` imports the generated test avatar
(about 5,000 triangles, 256² textures) and ` + "`BenchmarkImport100k4096`" + ` a generated model of about
100,000 triangles with 4096² textures, each into a pack of about 90 pictures at 384x512 with 2x2 samples
a pixel; the goal table above holds them to issue 52's 10 s and 60 s on this 2-core machine and 1 GB.
Peak memory is the most the Go runtime held during the import (heap, stacks and what it mapped, sampled
every 10 ms): textures are decoded one at a time and shrunk to 1024 px a side before anything is drawn,
each picture is written as soon as it is drawn, and the renderer works in bands of rows.

` + "`BenchmarkIdleVRMPetVsBuiltIn`" + ` holds the other half of issue 52's promise, that an idle VRM pet
costs no more than the built-in character: it imports the generated test avatar with ` + "`yui pack import`" + `
into one config directory, selects it in that preset, and runs it beside a pet showing the built-in Yui,
side by side under one Xvfb over the same window as the idle benchmark; the goal table's "VRM pet" rows are
its CPU and wake-ups over the built-in's, at most 1.1x, the noise of two processes on a shared machine.

![Every frame of the imported test avatar: emotions, gaze, then each motion](screenshots/vrm-sheet.png)
`
