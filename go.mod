module dossier

go 1.26.8

require (
	github.com/notnil/chess v1.10.0
	github.com/spf13/pflag v1.0.6
)
