// The grade ladder (methodology §11).

package policy

import "github.com/attestari/attestari/internal/vocab"

// Grade is the ladder of docs/methodology.md §11 from the highest confirmed
// severity ("" when nothing is confirmed).
func Grade(highestConfirmed string) string {
	switch highestConfirmed {
	case vocab.SeverityHigh:
		return "F"
	case vocab.SeverityMedium:
		return "C"
	case vocab.SeverityLow:
		return "B"
	default:
		return "A"
	}
}
