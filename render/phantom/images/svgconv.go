package images

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// convertSVG is a first cut: the root's size only.
func convertSVG(data []byte) (*SVG, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: SVG: %v", ErrCorrupt, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != "svg" {
				return nil, fmt.Errorf("%w: SVG: root element is <%s>", ErrCorrupt, se.Name.Local)
			}
			s := &SVG{align: defaultAspect}
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "width":
					s.width, _ = strconv.ParseFloat(strings.TrimSuffix(a.Value, "px"), 64)
				case "height":
					s.height, _ = strconv.ParseFloat(strings.TrimSuffix(a.Value, "px"), 64)
				case "viewBox":
					f := strings.Fields(strings.ReplaceAll(a.Value, ",", " "))
					if len(f) == 4 {
						for i := range f {
							s.viewBox[i], _ = strconv.ParseFloat(f[i], 64)
						}
						s.hasViewBox = true
					}
				}
			}
			return s, nil
		}
	}
}
