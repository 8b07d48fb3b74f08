package analyzer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAIConfig configures the analyzer for any OpenAI-compatible
// chat-completions endpoint (vLLM, Ollama, llama.cpp's server and the
// like). BaseURL, APIKey and Model come from ATTESTARI_OPENAI_BASE_URL,
// ATTESTARI_OPENAI_API_KEY and ATTESTARI_OPENAI_MODEL (see FromEnv). The key
// may be empty for a local server; it is always set explicitly so that an
// SDK environment default never leaks in.
type OpenAIConfig struct {
	APIKey         string
	BaseURL        string
	Model          string
	MaxTokens      int64         // default 8192
	Timeout        time.Duration // per attempt; default 180s
	MaxConcurrency int           // default 4
	Retry          RetryPolicy
	HTTPClient     *http.Client
}

// OpenAI is the chat-completions analyzer: the answer is constrained by a
// strict JSON-schema response_format and parsed strictly, from the message
// content or, for servers that answer through a tool call, from a
// report_findings tool call's arguments.
type OpenAI struct {
	cfg    OpenAIConfig
	client openai.Client
	sem    semaphore
}

// NewOpenAI builds the analyzer. Model must be set.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	hc, err := sdkDefaults("openai", cfg.Model, &cfg.MaxTokens, &cfg.Timeout, cfg.HTTPClient)
	if err != nil {
		return nil, err
	}
	opts := []option.RequestOption{
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		option.WithAPIKey(cfg.APIKey),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	return &OpenAI{cfg: cfg, client: openai.NewClient(opts...), sem: newSemaphore(cfg.MaxConcurrency)}, nil
}

// ID is "openai:" + the model name.
func (o *OpenAI) ID() string { return "openai:" + o.cfg.Model }

func (o *OpenAI) params(req Request) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: shared.ChatModel(o.cfg.Model),
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(string(req.SystemPrompt)),
			openai.UserMessage(string(req.Evidence)),
		},
		MaxTokens:   openai.Int(o.cfg.MaxTokens),
		Temperature: openai.Float(0),
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   ReportToolName,
					Strict: openai.Bool(true),
					Schema: AnswerSchema(),
				},
			},
		},
	}
}

// Analyze sends one evidence block and parses the answer; retries and
// failure classes as for Anthropic. finish_reason length is truncation,
// content_filter or a refusal message is a refusal.
func (o *OpenAI) Analyze(ctx context.Context, req Request) (Response, error) {
	resp := Response{Analyzer: o.ID(), Model: o.cfg.Model}
	if err := o.sem.acquire(ctx); err != nil {
		return resp, err
	}
	defer o.sem.release()

	params := o.params(req)
	cc, calls, err := sdkCall(ctx, o.cfg.Retry, o.cfg.Timeout, func(ctx context.Context) (*openai.ChatCompletion, error) {
		return o.client.Chat.Completions.New(ctx, params)
	}, func(err error) (int, http.Header, string, bool) {
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) {
			return 0, nil, "", false
		}
		return apiErr.StatusCode, responseHeader(apiErr.Response), apiErr.Type, true
	})
	resp.Usage.Calls = calls
	if err != nil {
		return resp, fmt.Errorf("analyzer: openai: %w", err)
	}
	resp.Usage.InputTokens = cc.Usage.PromptTokens
	resp.Usage.OutputTokens = cc.Usage.CompletionTokens
	if cc.Model != "" {
		resp.Model = cc.Model
	}
	if len(cc.Choices) == 0 {
		return resp, fmt.Errorf("analyzer: openai: %w: no choices", ErrMalformed)
	}
	ch := cc.Choices[0]
	resp.StopReason = ch.FinishReason
	switch ch.FinishReason {
	case "stop", "tool_calls":
	case "length":
		return resp, fmt.Errorf("analyzer: openai: %w: finish_reason length", ErrTruncated)
	case "content_filter":
		return resp, fmt.Errorf("analyzer: openai: %w: finish_reason content_filter", ErrRefused)
	default:
		return resp, fmt.Errorf("analyzer: openai: %w: finish_reason %q", ErrMalformed, truncate(ch.FinishReason))
	}
	if ch.Message.Refusal != "" {
		return resp, fmt.Errorf("analyzer: openai: %w: refusal message", ErrRefused)
	}
	var raw []byte
	switch {
	case len(ch.Message.ToolCalls) > 0:
		if len(ch.Message.ToolCalls) != 1 {
			return resp, fmt.Errorf("analyzer: openai: %w: %d tool calls, want 1", ErrMalformed, len(ch.Message.ToolCalls))
		}
		tc := ch.Message.ToolCalls[0]
		if tc.Type != "function" || tc.Function.Name != ReportToolName {
			return resp, fmt.Errorf("analyzer: openai: %w: tool call %q", ErrMalformed, truncate(tc.Function.Name))
		}
		raw = []byte(tc.Function.Arguments)
	case ch.Message.Content != "":
		raw = []byte(ch.Message.Content)
	default:
		return resp, fmt.Errorf("analyzer: openai: %w: empty message", ErrMalformed)
	}
	resp.Answer = raw
	props, reports, err := ParseAnswer(raw, req)
	if err != nil {
		return resp, fmt.Errorf("analyzer: openai: %w", err)
	}
	resp.Proposals, resp.Entries = props, reports
	return resp, nil
}
