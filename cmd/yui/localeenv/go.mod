// The module path sorts before fyne.io: see localeenv.go for why it is a
// module of its own.
module early/localeenv

go 1.26.8
