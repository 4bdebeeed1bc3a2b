module yui

go 1.26.8

require (
	fyne.io/fyne/v2 v2.7.1 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/disintegration/imaging v1.6.2 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	github.com/openai/openai-go/v3 v3.98.0 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	golang.org/x/image v0.48.0 // indirect
)
