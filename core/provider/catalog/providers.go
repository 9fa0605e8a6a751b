package catalog

import "sync"

// The catalog: services goose-acp talks to through its OpenAI-compatible
// or Anthropic-compatible engine and does not build in. Each model's
// figures as in models.go.

// providers is built on first use: package init runs before the session
// database's early open can start, and a process that never asks for the
// catalog does not build it.
var providers = sync.OnceValue(func() []Provider {
	return []Provider{
		{ID: "fireworks-ai", Name: "Fireworks AI", Format: FormatOpenAI, APIURL: "https://api.fireworks.ai/inference/v1/",
			DocURL: "https://fireworks.ai/docs/", EnvVar: "FIREWORKS_API_KEY", Models: []Model{
				model("accounts/fireworks/models/gpt-oss-120b", "GPT OSS 120B", 131_072, 32_768, tools|reasons|temperature, 0.15, 0.6, 0.015, -1),
				model("accounts/fireworks/models/gpt-oss-20b", "GPT OSS 20B", 131_072, 32_768, tools|reasons|temperature, 0.07, 0.3, 0.035, -1),
			}},
		{ID: "github-models", Name: "GitHub Models", Format: FormatOpenAI, APIURL: "https://models.github.ai/inference",
			DocURL: "https://docs.github.com/en/github-models", EnvVar: "GITHUB_TOKEN", Models: []Model{
				model("openai/gpt-4.1", "GPT-4.1", 128_000, 16_384, chat, 0, 0, -1, -1),
				model("openai/gpt-4.1-mini", "GPT-4.1-mini", 128_000, 16_384, chat, 0, 0, -1, -1),
				model("openai/gpt-4o", "GPT-4o", 128_000, 16_384, chat, 0, 0, -1, -1),
				model("openai/gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, chat, 0, 0, -1, -1),
				model("meta/llama-3.3-70b-instruct", "Llama-3.3-70B-Instruct", 128_000, 32_768, tools|reasons|temperature, 0, 0, -1, -1),
			}},
		{ID: "huggingface", Name: "Hugging Face", Format: FormatOpenAI, APIURL: "https://router.huggingface.co/v1",
			DocURL: "https://huggingface.co/docs/inference-providers", EnvVar: "HF_TOKEN", Models: []Model{
				model("Qwen/Qwen3-Coder-480B-A35B-Instruct", "Qwen3-Coder-480B-A35B-Instruct", 262_144, 66_536, textOnly, 2, 2, -1, -1),
				model("Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen3-Coder 30B-A3B Instruct", 262_144, 65_536, textOnly, 0.07, 0.26, -1, -1),
				model("meta-llama/Llama-3.3-70B-Instruct", "Llama-3.3-70B-Instruct", 131_072, 4_096, textOnly, 0.59, 0.79, -1, -1),
				model("moonshotai/Kimi-K2-Instruct", "Kimi-K2-Instruct", 131_072, 16_384, textOnly, 1, 3, -1, -1),
				model("openai/gpt-oss-120b", "GPT OSS 120B", 131_072, 32_768, tools|reasons|temperature, 0.25, 0.69, -1, -1),
				model("zai-org/GLM-4.6", "GLM-4.6", 204_800, 131_072, tools|reasons|temperature, 0.55, 2.2, -1, -1),
			}},
		{ID: "kimi-for-coding", Name: "Kimi For Coding", Format: FormatAnthropic, APIURL: "https://api.kimi.com/coding/v1",
			DocURL: "https://www.kimi.com/code/docs/en/third-party-tools/other-coding-agents.html", EnvVar: "KIMI_API_KEY", Models: []Model{
				model("kimi-for-coding", "Kimi For Coding", 262_144, 32_768, thinking, 0, 0, 0, 0),
			}},
		{ID: "lmstudio", Name: "LMStudio", Format: FormatOpenAI, APIURL: "http://127.0.0.1:1234/v1",
			DocURL: "https://lmstudio.ai/models", EnvVar: "LMSTUDIO_API_KEY", Models: []Model{
				model("openai/gpt-oss-20b", "GPT OSS 20B", 131_072, 32_768, tools|reasons|temperature, 0, 0, -1, -1),
				model("qwen/qwen3-coder-30b", "Qwen3 Coder 30B", 262_144, 65_536, textOnly, 0, 0, -1, -1),
			}},
		{ID: "minimax", Name: "MiniMax (minimax.io)", Format: FormatAnthropic, APIURL: "https://api.minimax.io/anthropic/v1",
			DocURL: "https://platform.minimax.io/docs/guides/quickstart", EnvVar: "MINIMAX_API_KEY", Models: []Model{
				model("MiniMax-M2", "MiniMax-M2", 196_608, 128_000, tools|reasons|temperature, 0.3, 1.2, -1, -1),
				model("MiniMax-M2.1", "MiniMax-M2.1", 204_800, 131_072, tools|reasons|temperature, 0.3, 1.2, -1, -1),
			}},
		{ID: "moonshotai", Name: "Moonshot AI", Format: FormatOpenAI, APIURL: "https://api.moonshot.ai/v1",
			DocURL: "https://platform.moonshot.ai/docs/api/chat", EnvVar: "MOONSHOT_API_KEY", Models: []Model{
				model("kimi-k2-0905-preview", "Kimi K2 0905", 262_144, 262_144, textOnly, 0.6, 2.5, 0.15, -1),
				model("kimi-k2-turbo-preview", "Kimi K2 Turbo", 262_144, 262_144, textOnly, 2.4, 10, 0.6, -1),
				model("kimi-k2-thinking", "Kimi K2 Thinking", 262_144, 262_144, tools|reasons|temperature, 0.6, 2.5, 0.15, -1),
			}},
		{ID: "nvidia", Name: "Nvidia", Format: FormatOpenAI, APIURL: "https://integrate.api.nvidia.com/v1",
			DocURL: "https://docs.api.nvidia.com/nim/", EnvVar: "NVIDIA_API_KEY", Models: []Model{
				model("meta/llama-3.3-70b-instruct", "Llama 3.3 70b Instruct", 128_000, 4_096, textOnly, 0, 0, -1, -1),
				model("meta/llama-3.1-70b-instruct", "Llama 3.1 70b Instruct", 128_000, 4_096, textOnly, 0, 0, -1, -1),
			}},
		{ID: "ollama-cloud", Name: "Ollama Cloud", Format: FormatOpenAI, APIURL: "https://ollama.com/v1",
			DocURL: "https://docs.ollama.com/cloud", EnvVar: "OLLAMA_API_KEY", Models: []Model{
				model("gpt-oss:120b", "gpt-oss:120b", 131_072, 32_768, tools|reasons, -1, -1, -1, -1),
				model("gpt-oss:20b", "gpt-oss:20b", 131_072, 32_768, tools|reasons, -1, -1, -1, -1),
			}},
		{ID: "zai", Name: "Z.AI", Format: FormatOpenAI, APIURL: "https://api.z.ai/api/paas/v4",
			DocURL: "https://docs.z.ai/guides/overview/pricing", EnvVar: "ZHIPU_API_KEY", Models: []Model{
				model("glm-4.5", "GLM-4.5", 131_072, 98_304, tools|reasons|temperature, 0.6, 2.2, 0.11, 0),
				model("glm-4.5-air", "GLM-4.5-Air", 131_072, 98_304, tools|reasons|temperature, 0.2, 1.1, 0.03, 0),
				model("glm-4.6", "GLM-4.6", 204_800, 131_072, tools|reasons|temperature, 0.6, 2.2, 0.11, 0),
			}},
	}
})
