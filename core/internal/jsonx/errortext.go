package jsonx

// ErrorText turns an encoding/json error into plain text with the byte
// offset where the input went wrong.
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
