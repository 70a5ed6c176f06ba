// Package report renders what the memory holds for dossier memory's commands: the opponents' table, one
// opponent's report with its charts (text, JSON, SVG), and its stored games as PGN or PDN.
package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"dossier/memory"
)

// WriteOpponents prints the opponents as a table, or says that the memory in dir holds none yet.
func WriteOpponents(w io.Writer, dir string, list []memory.Summary) error {
	if len(list) == 0 {
		fmt.Fprintf(w, "no opponents in %s yet\n", dir)
		return nil
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "OPPONENT\tGAMES\tW/D/L\tSCORE\tLAST SEEN\tRATING\tKIND\tMODELS")
	for _, s := range list {
		rating := "-"
		if s.Elo > 0 {
			rating = fmt.Sprint(s.Elo)
		}
		models := strings.Join(s.Models, ",")
		if models == "" {
			models = "-"
		}
		kind := s.Kind
		if kind == "" {
			kind = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d/%d/%d\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.Games, s.Wins, s.Draws, s.Losses,
			scoreText(s.Wins, s.Draws, s.Losses), s.LastSeen.Local().Format("2006-01-02 15:04"), rating, kind, models)
	}
	return tw.Flush()
}

// scoreText writes our score percentage over decided and drawn games, or "-" without any.
func scoreText(w, d, l int) string {
	if w+d+l == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*(float64(w)+0.5*float64(d))/float64(w+d+l))
}
