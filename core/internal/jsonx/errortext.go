package jsonx

// ErrorText turns a decoding error of this package (*ScanError,
// *SyntaxError, *TypeError) into plain text with the byte offset where the
// input went wrong; any other error gives its Error().
func ErrorText(err error) string {
	switch e := err.(type) {
	case *ScanError:
		return e.Error()
	case *SyntaxError:
		return Sprintf("%s at byte %d", e.Error(), e.Offset)
	case *TypeError:
		return Sprintf("%s at byte %d", e.Error(), e.Offset)
	}
	return err.Error()
}
