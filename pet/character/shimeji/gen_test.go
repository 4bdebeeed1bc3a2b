package shimeji

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GenPose is a generated pose: a w×h image filled with colour c over a
// transparent margin, named file.
type genPose struct {
	file string
	w, h int
	c    color.NRGBA
}

// writePNG writes a pose image: an opaque block in the image's lower
// half, so that the feet are at the bottom.
func writePNG(t testing.TB, name string, w, h int, c color.NRGBA) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := h / 4; y < h; y++ {
		for x := w / 4; x < w*3/4; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// englishActions is a small Shimeji-ee actions.xml; japaneseActions the
// same in the original's dialect.
const englishActions = `<?xml version="1.0" encoding="UTF-8"?>
<Mascot xmlns="http://www.group-finity.com/Mascot">
 <ActionList>
  <Action Name="Look" Type="Embedded" Class="com.group_finity.mascot.action.Look"/>
  <Action Name="Stand" Type="Stay" BorderType="Floor"><Animation>
   <Pose Image="/shime1.png" ImageAnchor="40,100" Velocity="0,0" Duration="250"/></Animation></Action>
  <Action Name="Walk" Type="Move" BorderType="Floor"><Animation>
   <Pose Image="/shime1.png" ImageAnchor="40,100" Velocity="-3,0" Duration="6"/>
   <Pose Image="/shime2.png" ImageAnchor="40,100" Velocity="-3,0" Duration="4"/></Animation></Action>
  <Action Name="Sit" Type="Stay" BorderType="Floor"><Animation>
   <Pose Image="/shime11.png" ImageAnchor="40,100" Velocity="0,0" Duration="250"/></Animation></Action>
  <Action Name="SitAndDangleLegs" Type="Stay" BorderType="Floor"><Animation>
   <Pose Image="/shime31.png" ImageAnchor="40,84" Velocity="0,0" Duration="5"/>
   <Pose Image="/shime32.png" ImageAnchor="40,84" Velocity="0,0" Duration="15"/></Animation></Action>
  <Action Name="Falling" Type="Embedded" Class="com.group_finity.mascot.action.Fall"><Animation>
   <Pose Image="/shime4.png" ImageAnchor="40,100" Velocity="0,0" Duration="250"/></Animation></Action>
  <Action Name="Bouncing" Type="Animate" BorderType="Floor"><Animation>
   <Pose Image="/shime18.png" ImageAnchor="40,100" Velocity="0,0" Duration="4"/>
   <Pose Image="/shime19.png" ImageAnchor="40,100" Velocity="0,0" Duration="4"/></Animation></Action>
  <Action Name="Pinched" Type="Embedded" Class="com.group_finity.mascot.action.Dragged">
   <Animation Condition="#{FootX &lt; mascot.environment.cursor.x-50}"><Pose Image="/shime9.png" ImageAnchor="40,100" Velocity="0,0" Duration="5"/></Animation>
   <Animation><Pose Image="/shime5.png" ImageAnchor="40,100" Velocity="0,0" Duration="5"/></Animation></Action>
  <Action Name="Sprawl" Type="Stay" BorderType="Floor"><Animation>
   <Pose Image="/shime21.png" ImageAnchor="40,100" Velocity="0,0" Duration="250"/></Animation></Action>
 </ActionList>
 <ActionList>
  <Action Name="Fall" Type="Sequence" Loop="false"><ActionReference Name="Falling"/></Action>
 </ActionList>
</Mascot>
`

// toJapanese turns englishActions into the original Shimeji's dialect.
func toJapanese(s string) string {
	r := strings.NewReplacer(
		"<Mascot", "<マスコット", "</Mascot>", "</マスコット>",
		"<ActionList>", "<動作リスト>", "</ActionList>", "</動作リスト>",
		"<Action ", "<動作 ", "</Action>", "</動作>",
		"<Animation>", "<アニメーション>", "<Animation ", "<アニメーション ", "</Animation>", "</アニメーション>",
		"<Pose ", "<ポーズ ", "<ActionReference ", "<動作参照 ",
		`Name="Stand"`, `名前="立つ"`, `Name="Walk"`, `名前="歩く"`, `Name="Sit"`, `名前="座る"`,
		`Name="SitAndDangleLegs"`, `名前="足をぶらぶらさせる"`, `Name="Falling"`, `名前="落ちる"`,
		`Name="Bouncing"`, `名前="跳ねる"`, `Name="Pinched"`, `名前="つままれる"`, `Name="Sprawl"`, `名前="寝そべる"`,
		`Name="Look"`, `名前="振り向く"`, `Name="Fall"`, `名前="落下する"`,
		"Type=", "種類=", "BorderType=", "枠=", "Class=", "クラス=", "Condition=", "条件=", "Loop=", "繰り返し=",
		"Image=", "画像=", "ImageAnchor=", "基準座標=", "Velocity=", "移動速度=", "Duration=", "長さ=",
	)
	return r.Replace(s)
}

// poseColors are the generated poses, each its own colour.
var poseColors = map[string]color.NRGBA{
	"shime1.png": {200, 40, 40, 255}, "shime2.png": {200, 120, 40, 255}, "shime11.png": {40, 160, 40, 255},
	"shime31.png": {40, 40, 200, 255}, "shime32.png": {40, 140, 200, 255}, "shime4.png": {160, 40, 160, 255},
	"shime18.png": {120, 120, 40, 255}, "shime19.png": {40, 120, 120, 255}, "shime9.png": {90, 90, 90, 255},
	"shime5.png": {150, 150, 150, 255}, "shime21.png": {30, 30, 30, 255},
}

// makeSet writes a set: images 80x100 in imgDir, actions in confDir.
func makeSet(t testing.TB, imgDir, confDir, actionsName, actions string) {
	t.Helper()
	for f, c := range poseColors {
		writePNG(t, filepath.Join(imgDir, f), 80, 100, c)
	}
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(confDir, actionsName), []byte(actions), 0o644); err != nil {
		t.Fatal(err)
	}
}
