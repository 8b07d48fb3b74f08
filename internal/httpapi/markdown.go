package httpapi

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// markdownHTML renders the subset of Markdown the methodology documents use
// (headings, paragraphs, lists, tables, fenced code, inline code, bold,
// italics, links) to HTML. Every byte of text is escaped; links keep only
// relative, fragment and http(s) targets. It exists so the website needs no
// dependency and no build step; it is not a general Markdown renderer.
func markdownHTML(src string) template.HTML {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			flush()
		case strings.HasPrefix(t, "```"):
			flush()
			b.WriteString("<pre><code>")
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				b.WriteString(html.EscapeString(lines[i]) + "\n")
			}
			b.WriteString("</code></pre>\n")
		case headingRe.MatchString(t):
			flush()
			m := headingRe.FindStringSubmatch(t)
			n := len(m[1])
			id := slug(m[2])
			b.WriteString("<h" + string(rune('0'+n)) + ` id="` + id + `">` + inline(m[2]) + "</h" + string(rune('0'+n)) + ">\n")
		case strings.HasPrefix(t, "|"):
			flush()
			var rows [][]string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				rows = append(rows, cells(lines[i]))
			}
			i--
			writeTable(&b, rows)
		case listRe.MatchString(l):
			flush()
			ordered := orderedRe.MatchString(l)
			tag := "ul"
			if ordered {
				tag = "ol"
			}
			b.WriteString("<" + tag + ">\n")
			var item []string
			end := func() {
				if item != nil {
					b.WriteString("<li>" + inline(strings.Join(item, " ")) + "</li>\n")
					item = nil
				}
			}
			for ; i < len(lines); i++ {
				li := lines[i]
				if m := listRe.FindStringSubmatch(li); m != nil {
					end()
					item = []string{m[2]}
					continue
				}
				if strings.TrimSpace(li) == "" || !strings.HasPrefix(li, " ") {
					break
				}
				item = append(item, strings.TrimSpace(li))
			}
			end()
			i--
			b.WriteString("</" + tag + ">\n")
		default:
			para = append(para, t)
		}
	}
	flush()
	return template.HTML(b.String()) // #nosec: every text byte above went through html.EscapeString
}

var (
	headingRe = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	listRe    = regexp.MustCompile(`^(\s{0,3}[-*]|\s{0,3}\d+\.)\s+(.*)$`)
	orderedRe = regexp.MustCompile(`^\s{0,3}\d+\.\s`)
	sepRe     = regexp.MustCompile(`^:?-{3,}:?$`)
	codeRe    = regexp.MustCompile("`([^`]+)`")
	boldRe    = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	emRe      = regexp.MustCompile(`(^|[^*\w])\*([^*\s][^*]*)\*`)
	linkRe    = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	slugRe    = regexp.MustCompile(`[^a-z0-9]+`)
)

func slug(s string) string {
	return strings.Trim(slugRe.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

func cells(line string) []string {
	t := strings.Trim(strings.TrimSpace(line), "|")
	parts := strings.Split(t, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func writeTable(b *strings.Builder, rows [][]string) {
	b.WriteString(`<div class="table-wrap"><table>` + "\n")
	head := true
	for i, r := range rows {
		if i == 1 && len(r) > 0 && sepRe.MatchString(r[0]) {
			head = false
			continue
		}
		tag := "td"
		if head && i == 0 && len(rows) > 1 && len(rows[1]) > 0 && sepRe.MatchString(rows[1][0]) {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range r {
			if tag == "th" {
				b.WriteString(`<th scope="col">` + inline(c) + "</th>")
			} else {
				b.WriteString("<td>" + inline(c) + "</td>")
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")
}

// inline escapes text, then applies code spans (whose contents are not
// further formatted), bold, italics and links.
func inline(s string) string {
	var codes []string
	s = codeRe.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00" + string(rune('a'+len(codes)-1)) + "\x00"
	})
	s = html.EscapeString(s)
	s = boldRe.ReplaceAllString(s, "<strong>$1</strong>")
	s = emRe.ReplaceAllString(s, "$1<em>$2</em>")
	s = linkRe.ReplaceAllStringFunc(s, func(m string) string {
		p := linkRe.FindStringSubmatch(m)
		href := html.UnescapeString(p[2])
		if !(strings.HasPrefix(href, "http://") || strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "#") || strings.HasPrefix(href, "/")) {
			return p[1]
		}
		return `<a href="` + html.EscapeString(href) + `">` + p[1] + "</a>"
	})
	for i, c := range codes {
		s = strings.Replace(s, "\x00"+string(rune('a'+i))+"\x00", c, 1)
	}
	return s
}

// tocEntry is one heading of a document's table of contents.
type tocEntry struct {
	ID    string
	Text  template.HTML
	Level int // 2 or 3
	Sub   []tocEntry
}

var frontMatterRe = regexp.MustCompile(`^[a-z_]+:\s`)

// documentHTML renders a methodology document as a page reads it: the
// leading key: value lines (the version line a machine reads) and the
// title are taken off, the title returned apart, and the ## and ###
// headings outside code blocks listed as a table of contents whose ids are
// the ones markdownHTML gives them.
func documentHTML(src string) (title string, toc []tocEntry, body template.HTML) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && frontMatterRe.MatchString(lines[i]) {
		i++
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i < len(lines) && strings.HasPrefix(lines[i], "# ") {
		title = strings.TrimSpace(lines[i][2:])
		i++
	}
	rest := lines[i:]
	fenced := false
	for _, l := range rest {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			fenced = !fenced
			continue
		}
		m := headingRe.FindStringSubmatch(t)
		if fenced || m == nil || (len(m[1]) != 2 && len(m[1]) != 3) {
			continue
		}
		e := tocEntry{ID: slug(m[2]), Text: template.HTML(inline(m[2])), Level: len(m[1])}
		if e.Level == 3 && len(toc) > 0 {
			toc[len(toc)-1].Sub = append(toc[len(toc)-1].Sub, e)
			continue
		}
		toc = append(toc, e)
	}
	return title, toc, markdownHTML(strings.Join(rest, "\n"))
}
