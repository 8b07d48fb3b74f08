// The grade ladder (methodology §11).

package policy

// Grade is the ladder of docs/methodology.md §11 from the highest confirmed
// severity ("" when nothing is confirmed).
func Grade(highestConfirmed string) string {
	switch highestConfirmed {
	case SeverityHigh:
		return "F"
	case SeverityMedium:
		return "C"
	case SeverityLow:
		return "B"
	default:
		return "A"
	}
}
