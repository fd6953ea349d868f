package jsonx

// ErrorText turns a decoding error of this package into plain text: a
// *SyntaxError gives its message with line and column, a *TypeError its
// message with the byte offset where the value stands ("… at byte N");
// any other error gives its Error().
func ErrorText(err error) string {
	if e, ok := err.(*TypeError); ok {
		return Sprintf("%s at byte %d", e.Error(), e.Offset)
	}
	return err.Error()
}
