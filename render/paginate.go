package render

// Page is one element of the pages array a paginated template receives
// (spec "Pagination in markup").
type Page struct {
	PageNumber  int   `json:"pageNumber"`
	PageCount   int   `json:"pageCount"`
	Items       []any `json:"items"`
	IsFirstPage bool  `json:"isFirstPage"`
	IsLastPage  bool  `json:"isLastPage"`
}

// Paginate slices items into pages: the first holds firstPage items (0 means
// perPage), each later one perPage. No items still make one page, because a
// document always has a first page to carry its header and totals; a
// collection that exactly fills its pages gets no empty page after them.
func Paginate(items []any, perPage, firstPage int) []Page {
	if perPage < 1 {
		perPage = 1
	}
	if firstPage <= 0 {
		firstPage = perPage
	}
	var chunks [][]any
	first := min(firstPage, len(items))
	chunks = append(chunks, items[:first])
	for rest := items[first:]; len(rest) > 0; {
		n := min(perPage, len(rest))
		chunks = append(chunks, rest[:n])
		rest = rest[n:]
	}
	pages := make([]Page, len(chunks))
	for i, c := range chunks {
		if c == nil {
			c = []any{}
		}
		pages[i] = Page{PageNumber: i + 1, PageCount: len(chunks), Items: c, IsFirstPage: i == 0, IsLastPage: i == len(chunks)-1}
	}
	return pages
}
