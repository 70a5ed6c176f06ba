// Package play holds what the front ends (UCI and CECP sessions, the match runner) and the engines they drive
// share: the engine interface (Engine) and a game's life cycle as every front end reports it, one game
// tracker that observes each move once, the options an engine offers, and the opponent's identity (see
// play/opponent).
package play
