// Package analyzertest provides fake model servers for tests: an Anthropic
// Messages API and an OpenAI-compatible chat-completions endpoint, each an
// httptest server that speaks the real wire format (message objects with
// tool_use content blocks and stop reasons, chat.completion objects with
// finish reasons, error bodies, Retry-After headers, bodies cut short).
//
// It is test support only: it must not be imported by production code, and
// it never reaches a network beyond the loopback listener httptest opens.
package analyzertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
)

// Step is one scripted HTTP answer.
type Step struct {
	Status   int               // default 200
	Header   map[string]string // extra headers (Retry-After, ...)
	Body     []byte
	CutShort bool // declare the full length, send half the body, close the connection
}

// Recorded is one request the fake received.
type Recorded struct {
	Path   string
	Header http.Header
	Body   map[string]any
	// System and Evidence are the system prompt and the user message the
	// request carried, read from the provider's wire format.
	System   string
	Evidence string
}

// Responder computes the answer to a request. The fake calls it when its
// script is exhausted (or when no script was given).
type Responder func(r Recorded) Step

// Server is a fake provider endpoint.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	steps    []Step
	respond  Responder
	requests []Recorded
	parse    func(map[string]any) (string, string)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

func newServer(t testing.TB, path string, parse func(map[string]any) (string, string), respond Responder, steps []Step) *Server {
	s := &Server{steps: steps, respond: respond, parse: parse}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		rec := Recorded{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
		rec.System, rec.Evidence = s.parse(body)
		s.mu.Lock()
		s.requests = append(s.requests, rec)
		var st Step
		switch {
		case r.URL.Path != path:
			st = Step{Status: http.StatusNotFound, Body: []byte(`{"error":"no such path"}`)}
		case len(s.steps) > 0:
			st = s.steps[0]
			s.steps = s.steps[1:]
		case s.respond != nil:
			s.mu.Unlock()
			st = s.respond(rec)
			s.mu.Lock()
		default:
			st = Step{Status: http.StatusInternalServerError, Body: []byte(`{"error":"script exhausted"}`)}
		}
		s.mu.Unlock()
		write(w, st)
	}))
	t.Cleanup(s.Close)
	return s
}

func write(w http.ResponseWriter, st Step) {
	for k, v := range st.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	code := st.Status
	if code == 0 {
		code = http.StatusOK
	}
	if !st.CutShort {
		w.WriteHeader(code)
		_, _ = w.Write(st.Body)
		return
	}
	// Promise the whole body, send half, and drop the connection.
	w.Header().Set("Content-Length", strconv.Itoa(len(st.Body)))
	w.WriteHeader(code)
	_, _ = w.Write(st.Body[:len(st.Body)/2])
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if hj, ok := w.(http.Hijacker); ok {
		if conn, buf, err := hj.Hijack(); err == nil {
			_ = buf.Flush()
			_ = conn.Close()
		}
	}
}

// --- Anthropic Messages API ---

// NewAnthropic starts a fake Messages API at /v1/messages that plays steps
// in order and then asks respond.
func NewAnthropic(t testing.TB, respond Responder, steps ...Step) *Server {
	return newServer(t, "/v1/messages", anthropicParse, respond, steps)
}

func anthropicParse(body map[string]any) (string, string) {
	var sys, ev string
	if blocks, ok := body["system"].([]any); ok && len(blocks) > 0 {
		if b, ok := blocks[0].(map[string]any); ok {
			sys, _ = b["text"].(string)
		}
	}
	if msgs, ok := body["messages"].([]any); ok && len(msgs) > 0 {
		if m, ok := msgs[0].(map[string]any); ok {
			if content, ok := m["content"].([]any); ok && len(content) > 0 {
				if c, ok := content[0].(map[string]any); ok {
					ev, _ = c["text"].(string)
				}
			}
		}
	}
	return sys, ev
}

// AnthropicMessage renders a message object with the given content blocks
// and stop reason.
func AnthropicMessage(stopReason string, content ...map[string]any) Step {
	msg := map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
		"content": content, "stop_reason": stopReason, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1200, "output_tokens": 80},
	}
	b, _ := json.Marshal(msg)
	return Step{Body: b}
}

// ToolUse is a tool_use content block calling report_findings with answer.
func ToolUse(answer []byte) map[string]any {
	return map[string]any{"type": "tool_use", "id": "toolu_fake", "name": analyzer.ReportToolName, "input": json.RawMessage(answer)}
}

// Text is a text content block.
func Text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// AnthropicError renders an Anthropic error body with status and type.
func AnthropicError(status int, errType string, header map[string]string) Step {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": errType, "message": errType}})
	return Step{Status: status, Header: header, Body: b}
}

// --- OpenAI chat completions ---

// NewOpenAI starts a fake chat-completions endpoint at /v1/chat/completions
// (the client's base URL is the server URL + "/v1/").
func NewOpenAI(t testing.TB, respond Responder, steps ...Step) *Server {
	return newServer(t, "/v1/chat/completions", openaiParse, respond, steps)
}

func openaiParse(body map[string]any) (string, string) {
	var sys, ev string
	if msgs, ok := body["messages"].([]any); ok {
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			content, _ := mm["content"].(string)
			switch mm["role"] {
			case "system":
				sys = content
			case "user":
				ev = content
			}
		}
	}
	return sys, ev
}

// ChatCompletion renders a chat.completion with one choice whose message
// carries content (and refusal when non-empty).
func ChatCompletion(finishReason, content, refusal string) Step {
	msg := map[string]any{"role": "assistant", "content": content}
	if refusal != "" {
		msg["refusal"] = refusal
		msg["content"] = nil
	}
	return chat(finishReason, msg)
}

// ChatToolCall renders a chat.completion whose message calls
// report_findings with answer as its arguments.
func ChatToolCall(answer []byte) Step {
	msg := map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
		"id": "call_fake", "type": "function",
		"function": map[string]any{"name": analyzer.ReportToolName, "arguments": string(answer)},
	}}}
	return chat("tool_calls", msg)
}

func chat(finishReason string, msg map[string]any) Step {
	cc := map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 1764460800, "model": "fake-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishReason, "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": 1200, "completion_tokens": 80, "total_tokens": 1280},
	}
	b, _ := json.Marshal(cc)
	return Step{Body: b}
}

// OpenAIError renders an OpenAI error body.
func OpenAIError(status int, errType string, header map[string]string) Step {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": errType, "type": errType, "param": nil, "code": nil}})
	return Step{Status: status, Header: header, Body: b}
}

// --- responders ---

// AnswerWith returns a responder that decodes the evidence block of each
// request and answers with whatever an (typically the offline analyzer)
// proposes for those entries, wrapped by wrap (AnthropicToolUseAnswer or
// OpenAIContentAnswer). A request whose evidence does not decode gets a 400.
func AnswerWith(an analyzer.Analyzer, wrap func([]byte) Step) Responder {
	return func(r Recorded) Step {
		entries, err := analyzer.DecodeEvidence([]byte(r.Evidence))
		if err != nil {
			return Step{Status: http.StatusBadRequest, Body: []byte(fmt.Sprintf(`{"error":%q}`, err.Error()))}
		}
		resp, err := an.Analyze(context.Background(), analyzer.Request{Entries: entries})
		if err != nil {
			return Step{Status: http.StatusInternalServerError, Body: []byte(`{"error":"responder failed"}`)}
		}
		return wrap(analyzer.EncodeAnswer(resp.Proposals, resp.Entries))
	}
}

// AnthropicToolUseAnswer wraps an answer as a tool_use message.
func AnthropicToolUseAnswer(answer []byte) Step { return AnthropicMessage("tool_use", ToolUse(answer)) }

// OpenAIContentAnswer wraps an answer as a chat.completion's content.
func OpenAIContentAnswer(answer []byte) Step { return ChatCompletion("stop", string(answer), "") }
