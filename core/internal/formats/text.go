package formats

// Text formats: an export that is not JSON (Aider's Markdown chat
// history) is read line by line, each line as it is in the file (without
// its line end, a trailing "\r" removed; white space kept, which may mark
// the line: Aider ends a user line with two spaces).

// TextReader reads a text export one line at a time.
type TextReader interface {
	// TextLine reads line number n (counting from 1).
	TextLine(raw []byte, n int)
	// Finish returns the conversations read.
	Finish() ([]Conversation, []Warning)
}

// textSniffBytes is how much of the data text detection looks at.
const textSniffBytes = 4096

// sniffText returns the Sniff of data that a format with a Text reader
// detects (Shape 't'), or nil when none does.
func sniffText(data []byte) *Sniff {
	sn := &Sniff{Shape: 't', Text: data[:min(len(data), textSniffBytes)]}
	for _, im := range Importers {
		if im.Text != nil && im.Detect(sn) {
			return sn
		}
	}
	return nil
}
