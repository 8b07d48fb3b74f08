package analyzer

import (
	"github.com/anthropics/anthropic-sdk-go/v2"

	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Analyzer names accepted by New and by ATTESTARI_ANALYZER.
const (
	NameOffline = "offline"
	// NamePurpose is the purpose-reading offline analyzer (purpose.go).
	NamePurpose   = "purpose"
	NameAnthropic = "anthropic"
	NameOpenAI    = "openai"
	// NameNone runs no analyzer: entries are analysed only from the proposal
	// cache, and every other entry is not analysed (never clean).
	NameNone = "none"
)

// DefaultName is the analyzer used when ATTESTARI_ANALYZER is unset. It is
// NameNone: the offline analyzer has not passed the admission test on the
// development corpus (docs/model-check.md), so it is never chosen silently,
// and a run that names no analyzer records its entries as not analysed.
const DefaultName = NameNone

// DefaultAnthropicModel is used when ATTESTARI_ANTHROPIC_MODEL is unset.
const DefaultAnthropicModel = string(anthropic.ModelClaudeOpus5_5)

// Environment variables read by FromEnv.
const (
	EnvAnalyzer         = "ATTESTARI_ANALYZER"
	EnvAnthropicKey     = "ATTESTARI_ANTHROPIC_API_KEY"
	EnvAnthropicBaseURL = "ATTESTARI_ANTHROPIC_BASE_URL"
	EnvAnthropicModel   = "ATTESTARI_ANTHROPIC_MODEL"
	EnvOpenAIKey        = "ATTESTARI_OPENAI_API_KEY"
	EnvOpenAIBaseURL    = "ATTESTARI_OPENAI_BASE_URL"
	EnvOpenAIModel      = "ATTESTARI_OPENAI_MODEL"
	EnvTimeout          = "ATTESTARI_ANALYZER_TIMEOUT"      // per attempt, a Go duration ("180s")
	EnvMaxTokens        = "ATTESTARI_ANALYZER_MAX_TOKENS"   // integer
	EnvConcurrency      = "ATTESTARI_ANALYZER_CONCURRENCY"  // calls in flight
	EnvMaxAttempts      = "ATTESTARI_ANALYZER_MAX_ATTEMPTS" // attempts per call, retries included
	// EnvSamples and EnvMinAgree select the m-of-K configuration (vote.go):
	// K answers per batch, a proposal kept when at least m propose it.
	// Unset, or K = 1: one sample.
	EnvSamples  = "ATTESTARI_ANALYZER_SAMPLES"
	EnvMinAgree = "ATTESTARI_ANALYZER_MIN_AGREE"
)

// ErrUnknownAnalyzer is returned for a name that is none of the five.
var ErrUnknownAnalyzer = errors.New("unknown analyzer")

// FromEnv builds the analyzer ATTESTARI_ANALYZER names (DefaultName when
// unset). It returns nil and no error for NameNone.
func FromEnv(getenv func(string) string) (Analyzer, error) {
	name := strings.TrimSpace(getenv(EnvAnalyzer))
	if name == "" {
		name = DefaultName
	}
	return New(name, getenv)
}

// New builds the analyzer called name, configured from getenv (os.Getenv in
// production). It returns nil and no error for NameNone.
func New(name string, getenv func(string) string) (Analyzer, error) {
	common, err := commonFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	an, err := newOne(name, getenv, common)
	if err != nil || an == nil || (common.samples <= 1 && common.minAgree == 0) {
		return an, err
	}
	k, m := common.samples, common.minAgree
	if k == 0 {
		k = 1
	}
	if m == 0 {
		return nil, fmt.Errorf("analyzer: %s=%d needs %s (the m of m-of-K)", EnvSamples, k, EnvMinAgree)
	}
	return NewVoting(an, m, k)
}

func newOne(name string, getenv func(string) string, common commonConfig) (Analyzer, error) {
	switch name {
	case NameNone:
		return nil, nil
	case NameOffline:
		return NewOffline(), nil
	case NamePurpose:
		return NewPurpose(), nil
	case NameAnthropic:
		model := getenv(EnvAnthropicModel)
		if model == "" {
			model = DefaultAnthropicModel
		}
		key := getenv(EnvAnthropicKey)
		if key == "" {
			return nil, fmt.Errorf("analyzer: anthropic: %s is not set", EnvAnthropicKey)
		}
		return NewAnthropic(AnthropicConfig{
			APIKey: key, BaseURL: getenv(EnvAnthropicBaseURL), Model: model,
			MaxTokens: common.maxTokens, Timeout: common.timeout, MaxConcurrency: common.concurrency,
			Retry: RetryPolicy{MaxAttempts: common.attempts},
		})
	case NameOpenAI:
		base := getenv(EnvOpenAIBaseURL)
		if base == "" {
			return nil, fmt.Errorf("analyzer: openai: %s is not set (the endpoint of the OpenAI-compatible server)", EnvOpenAIBaseURL)
		}
		model := getenv(EnvOpenAIModel)
		if model == "" {
			return nil, fmt.Errorf("analyzer: openai: %s is not set", EnvOpenAIModel)
		}
		return NewOpenAI(OpenAIConfig{
			APIKey: getenv(EnvOpenAIKey), BaseURL: base, Model: model,
			MaxTokens: common.maxTokens, Timeout: common.timeout, MaxConcurrency: common.concurrency,
			Retry: RetryPolicy{MaxAttempts: common.attempts},
		})
	default:
		return nil, fmt.Errorf("analyzer: %w: %q (want %s, %s, %s, %s or %s)", ErrUnknownAnalyzer, name, NameOffline, NamePurpose, NameAnthropic, NameOpenAI, NameNone)
	}
}

type commonConfig struct {
	timeout     time.Duration
	maxTokens   int64
	concurrency int
	attempts    int
	samples     int
	minAgree    int
}

func commonFromEnv(getenv func(string) string) (commonConfig, error) {
	var c commonConfig
	if v := getenv(EnvTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("analyzer: %s=%q is not a positive duration", EnvTimeout, v)
		}
		c.timeout = d
	}
	ints := []struct {
		env string
		set func(int64)
	}{
		{EnvMaxTokens, func(n int64) { c.maxTokens = n }},
		{EnvConcurrency, func(n int64) { c.concurrency = int(n) }},
		{EnvMaxAttempts, func(n int64) { c.attempts = int(n) }},
		{EnvSamples, func(n int64) { c.samples = int(n) }},
		{EnvMinAgree, func(n int64) { c.minAgree = int(n) }},
	}
	for _, i := range ints {
		if v := getenv(i.env); v != "" {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n <= 0 {
				return c, fmt.Errorf("analyzer: %s=%q is not a positive integer", i.env, v)
			}
			i.set(n)
		}
	}
	return c, nil
}
