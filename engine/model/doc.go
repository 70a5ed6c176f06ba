// Package model holds the opponent-model searches of the papers dossier follows, each an engine.Searcher
// built on the game-independent alpha-beta of package engine: Carmel & Markovitch's M* (with nested player
// models, and in the strategy form of their first paper), M* 1-pass and alpha-beta*; OM search (Iida et
// al.) and probabilistic PrOM search (Donkers; van den Herik, Donkers & Spronck 2005), both probing with
// engine.AlphaBeta; Sen & Arora's maximum-expected-utility search (MEU) with its models of the opponent's
// replies; and symmetric opponent modelling in games of bounded common interest. Every search takes its
// evaluation functions and its opponent model as inputs, never as globals, and shares one
// iterative-deepening driver (iterate.go).
//
// The package sits above engine: it imports engine, never the reverse.
package model
