// The feature vector of a position for linear evaluation functions.
package chess

var featureNames = [...]string{"tempo"}

// Features writes the feature vector from the side to move's point of view into dst.
func (p *Position) Features(dst []float64) {
	dst[0] = 1
}
