// Package learn holds the opponent learners of the papers dossier follows, beside the memory store that
// keeps their states per opponent (as memory.ModelUpdate events, each state a JSON document):
//
//   - TypeCounts: Donkers et al.'s offline estimate of opponent-type probabilities by counting (their
//     equation 1), with or without the ambiguous events in which several types agree with the opponent.
//   - TypeLearner: the online learning of type probabilities after every opponent move, fast (reward the
//     type whose best move was played) or slow (naive Bayes over Reibman and Ballard's rank probabilities
//     with the learning factor gamma), as van den Herik, Donkers and Spronck's survey writes it.
//   - DepthLearner: Carmel and Markovitch's learning of the opponent's search depth (their Figure 6).
//   - StrategyLearner: Carmel and Markovitch's learning of the opponent's linear evaluation and depth by
//     linear programming (their Figure 9), with gonum's simplex.
//   - Measure: one yardstick for every model (top-1 and top-3 accuracy, mean log-likelihood), with
//     Reibman and Ballard's rank model and minimax's implicit model (FalliblePlayer, MinimaxModel).
//
// Every opponent here is a fixed-depth minimax player (Player): engine.AlphaBeta with SearchOptions,
// negamax over the side to move's features, no quiescence, extensions or table. The package does not import
// dossier/bots (bots feeds it); presets reach it as engine.Evaluation values.
package learn
