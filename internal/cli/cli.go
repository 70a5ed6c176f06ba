// Package cli is the one way dossier's subcommands and the project's tools read their command lines: a pflag
// flag set per command, help on stdout with exit 0, errors on stderr with exit 2 (usage) or 1 (failure).
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Exit codes shared by every command, as go and git use them.
const (
	// ExitOK is a command that did what it was asked, help included.
	ExitOK = 0
	// ExitFailure is a command that was asked properly and failed.
	ExitFailure = 1
	// ExitUsage is a command line that is wrong: an unknown flag, a bad value, a missing or extra argument.
	ExitUsage = 2
)

// Command is one command line being read: the command's name as the user types it, its help and its flags.
type Command struct {
	// Name is the command as typed, e.g. "dossier perft"; error messages start with it.
	Name string
	// Flags is the command's flag set; define the flags on it before Parse.
	Flags *pflag.FlagSet

	help           string
	stdout, stderr io.Writer
}

// New returns a command called name whose help text is help (its first line is the usage line, which is also
// printed after a usage error), followed in --help by the flags' descriptions. Help goes to stdout, errors to
// stderr.
func New(name, help string, stdout, stderr io.Writer) *Command {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	c := &Command{Name: name, Flags: fs, help: strings.TrimRight(help, "\n"), stdout: stdout, stderr: stderr}
	// Parse reports errors and help itself, so that each goes to the right stream exactly once.
	fs.Usage = func() {}
	return c
}

// Parse reads args, allowing between minArgs and maxArgs positional arguments (maxArgs < 0: no limit). When
// stop is true the command must return code at once: after printing help (ExitOK) or a usage error
// (ExitUsage).
func (c *Command) Parse(args []string, minArgs, maxArgs int) (code int, stop bool) {
	err := c.Flags.Parse(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		c.PrintHelp(c.stdout)
		return ExitOK, true
	case err != nil:
		return c.UsageError("%v", err), true
	case c.Flags.NArg() < minArgs:
		return c.UsageError("missing arguments: want at least %d, got %d", minArgs, c.Flags.NArg()), true
	case maxArgs >= 0 && c.Flags.NArg() > maxArgs:
		return c.UsageError("unexpected argument %q", c.Flags.Arg(maxArgs)), true
	}
	return ExitOK, false
}

// Args returns the positional arguments left after Parse.
func (c *Command) Args() []string { return c.Flags.Args() }

// Changed reports whether the user set the flag named name on the command line.
func (c *Command) Changed(name string) bool { return c.Flags.Changed(name) }

// PrintHelp writes the help text and the flags' descriptions to w.
func (c *Command) PrintHelp(w io.Writer) {
	fmt.Fprintln(w, c.help)
	if c.Flags.HasFlags() {
		fmt.Fprintf(w, "\noptions:\n%s", c.Flags.FlagUsages())
	}
}

// UsageError reports a wrong command line on stderr, with the usage line and where to find the rest, and
// returns ExitUsage.
func (c *Command) UsageError(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.Name, fmt.Sprintf(format, a...))
	usageLine, _, _ := strings.Cut(c.help, "\n")
	fmt.Fprintf(c.stderr, "%s\nRun '%s --help' for details.\n", usageLine, c.Name)
	return ExitUsage
}

// Fail reports a failure of a command that was given properly on stderr and returns ExitFailure.
func (c *Command) Fail(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.Name, fmt.Sprintf(format, a...))
	return ExitFailure
}

// Warn reports on stderr something the user should know that does not stop the command.
func (c *Command) Warn(format string, a ...any) {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.Name, fmt.Sprintf(format, a...))
}

// Refuse returns a usage error naming the first of flags the user set, for flags that mean nothing in the
// mode chosen (what), so that no flag is silently ignored; it returns ExitOK and false when none was set.
func (c *Command) Refuse(what string, flags ...string) (code int, stop bool) {
	for _, name := range flags {
		if c.Flags.Changed(name) {
			return c.UsageError("--%s has no effect %s", name, what), true
		}
	}
	return ExitOK, false
}

// usageError is an error that is the command line's fault, for Exit to report as a usage error.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// Usagef returns an error that Exit reports as a usage error: the packages that run a command's work say so
// whether a bad value or a missing file is the command line's fault, since only they find out.
func Usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// IsUsage reports whether err, or an error it wraps, was made by Usagef.
func IsUsage(err error) bool {
	var u usageError
	return errors.As(err, &u)
}

// Exit reports err and returns the exit code: ExitOK for nil, ExitUsage for an error made by Usagef, else
// ExitFailure.
func (c *Command) Exit(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case IsUsage(err):
		return c.UsageError("%v", err)
	}
	return c.Fail("%v", err)
}
