module dossier

go 1.26.8

require (
	github.com/notnil/chess v1.10.0
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/pflag v1.0.6
	golang.org/x/sys v0.46.0
	golang.org/x/term v0.44.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
