package catalog

import "sync"

// What is known about the models of goose-acp's built-in providers, by
// vendor and family name (see normalize). Prices in US dollars per
// million tokens; -1 is not published. Figures follow goose's bundled
// model registry (models.dev) where it has the model, the vendor's
// published ones otherwise.

type caps uint8

const (
	tools caps = 1 << iota
	reasons
	attachments
	temperature
)

// model builds a Model; in, out, read and write are prices (-1: none).
func model(id, name string, context, output int, c caps, in, out, read, write float64) Model {
	return Model{ID: id, Name: name, ContextLimit: context, MaxOutput: output,
		ToolCall: c&tools != 0, Reasoning: c&reasons != 0, Attachment: c&attachments != 0, Temperature: c&temperature != 0,
		Cost: Cost{Input: price(in), Output: price(out), CacheRead: price(read), CacheWrite: price(write)}}
}

func price(p float64) *float64 {
	if p < 0 {
		return nil
	}
	return &p
}

func table(ms ...Model) map[string]Model {
	out := make(map[string]Model, len(ms))
	for _, m := range ms {
		out[m.ID] = m
	}
	return out
}

const (
	chat     = tools | attachments | temperature
	thinking = tools | reasons | attachments
	textOnly = tools | temperature
)

// vendors is built on first use (Lookup), not at start-up.
var vendors = sync.OnceValue(func() map[string]map[string]Model {
	return map[string]map[string]Model{
		"openai": table(
			model("gpt-4o", "GPT-4o", 128_000, 16_384, chat, 2.5, 10, 1.25, -1),
			model("gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, chat, 0.15, 0.6, 0.075, -1),
			model("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, chat, 2, 8, 0.5, -1),
			model("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, chat, 0.4, 1.6, 0.1, -1),
			model("gpt-4-turbo", "GPT-4 Turbo", 128_000, 4_096, chat, 10, 30, -1, -1),
			model("gpt-3.5-turbo", "GPT-3.5-turbo", 16_385, 4_096, temperature, 0.5, 1.5, -1, -1),
			model("o1", "o1", 200_000, 100_000, thinking, 15, 60, 7.5, -1),
			model("o1-mini", "o1-mini", 128_000, 65_536, reasons, 1.1, 4.4, 0.55, -1),
			model("o3", "o3", 200_000, 100_000, thinking, 2, 8, 0.5, -1),
			model("o4-mini", "o4-mini", 200_000, 100_000, thinking, 1.1, 4.4, 0.275, -1),
			model("gpt-5-nano", "GPT-5 Nano", 400_000, 128_000, thinking, 0.05, 0.4, 0.005, -1),
			model("gpt-5-codex", "GPT-5-Codex", 400_000, 128_000, tools|reasons, 1.25, 10, 0.125, -1),
			model("gpt-5.1-codex", "GPT-5.1 Codex", 400_000, 128_000, thinking, 1.25, 10, 0.125, -1),
			model("gpt-oss-120b", "GPT OSS 120B", 131_072, 131_072, tools|reasons|temperature, 0.037, 0.17, -1, -1),
			model("gpt-oss-20b", "GPT OSS 20B", 131_072, 131_072, tools|reasons|temperature, 0.03, 0.13, 0.03, -1),
		),
		"anthropic": table(
			model("claude-opus-4.6", "Claude Opus 4.6", 1_000_000, 128_000, thinking|temperature, 5, 25, 0.5, 6.25),
			model("claude-sonnet-4.6", "Claude Sonnet 4.6", 1_000_000, 128_000, thinking|temperature, 3, 15, 0.3, 3.75),
			model("claude-sonnet-4.5", "Claude Sonnet 4.5", 1_000_000, 64_000, thinking|temperature, 3, 15, 0.3, 3.75),
			model("claude-haiku-4.5", "Claude Haiku 4.5", 200_000, 64_000, thinking|temperature, 1, 5, 0.1, 1.25),
			model("claude-opus-4.5", "Claude Opus 4.5", 200_000, 64_000, thinking|temperature, 5, 25, 0.5, 6.25),
			model("claude-opus-4.1", "Claude Opus 4.1", 200_000, 32_000, thinking|temperature, 15, 75, 1.5, 18.75),
			model("claude-sonnet-4", "Claude Sonnet 4", 200_000, 64_000, thinking|temperature, 3, 15, 0.3, 3.75),
			model("claude-opus-4", "Claude Opus 4", 200_000, 32_000, thinking|temperature, 15, 75, 1.5, 18.75),
			model("claude-3.5-sonnet", "Claude Sonnet 3.5", 200_000, 8_192, chat, 3, 15, 0.3, 3.75),
		),
		"google": table(
			model("gemini-3-pro-preview", "Gemini 3 Pro Preview", 1_048_576, 65_536, thinking|temperature, 2, 12, 0.2, -1),
			model("gemini-2.5-pro", "Gemini 2.5 Pro", 1_048_576, 65_536, thinking|temperature, 1.25, 10, 0.125, -1),
			model("gemini-2.5-flash", "Gemini 2.5 Flash", 1_048_576, 65_536, thinking|temperature, 0.3, 2.5, 0.03, -1),
			model("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", 1_048_576, 65_536, thinking|temperature, 0.1, 0.4, 0.01, -1),
			model("gemini-2.0-flash", "Gemini 2.0 Flash", 1_048_576, 8_192, chat, 0.1, 0.4, 0.025, -1),
			model("gemini-2.0-flash-lite", "Gemini 2.0 Flash-Lite", 1_048_576, 8_192, chat, 0.075, 0.3, -1, -1),
		),
		"deepseek": table(
			model("deepseek-chat", "DeepSeek Chat", 1_000_000, 384_000, chat, 0.14, 0.28, 0.0028, -1),
			model("deepseek-reasoner", "DeepSeek Reasoner", 1_000_000, 384_000, thinking|temperature, 0.14, 0.28, 0.0028, -1),
			model("deepseek-r1", "DeepSeek R1", 163_840, 16_000, tools|reasons|temperature, 0.7, 2.5, -1, -1),
		),
		"groq": table(
			model("openai/gpt-oss-120b", "GPT OSS 120B", 131_072, 65_536, tools|reasons|temperature, 0.15, 0.6, 0.075, -1),
			model("openai/gpt-oss-20b", "GPT OSS 20B", 131_072, 65_536, tools|reasons|temperature, 0.075, 0.3, 0.0375, -1),
			model("llama-3.1-8b-instant", "Llama 3.1 8B", 131_072, 131_072, textOnly, 0.05, 0.08, -1, -1),
			model("llama-3.3-70b-versatile", "Llama 3.3 70B", 131_072, 32_768, textOnly, 0.59, 0.79, -1, -1),
		),
		"mistral": table(
			model("codestral", "Codestral", 256_000, 4_096, textOnly, 0.3, 0.9, -1, -1),
			model("magistral-medium", "Magistral Medium", 128_000, 16_384, tools|reasons|temperature, 2, 5, -1, -1),
		),
		"xai": table(
			model("grok-code-fast-1", "Grok Code Fast 1", 256_000, 10_000, tools|reasons, 0.2, 1.5, 0.02, -1),
			model("grok-4", "Grok 4", 256_000, 64_000, tools|reasons|attachments, 3, 15, 0.75, -1),
			model("grok-3", "Grok 3", 131_072, 8_192, textOnly, 3, 15, 0.75, -1),
			model("grok-3-mini", "Grok 3 Mini", 131_072, 8_192, tools|reasons|temperature, 0.3, 0.5, 0.075, -1),
		),
		"qwen": table(
			model("qwen3-coder", "Qwen3 Coder 480B A35B", 262_144, 65_536, textOnly, 0.3, 1, 0.1, -1),
		),
		"moonshotai": table(
			model("kimi-k2", "Kimi K2", 131_072, 100_352, textOnly, 0.57, 2.3, -1, -1),
		),
	}
})

// aliases are family names that mean another one.
var aliases = map[string]string{
	"anthropic/claude-sonnet-4.0": "claude-sonnet-4",
	"anthropic/claude-opus-4.0":   "claude-opus-4",
}
