// Package sources is goose's filesystem-backed CRUD of Desktop "sources":
// skills (a directory holding SKILL.md, under ~/.agents/skills globally or
// <project>/.agents/skills) and projects (<data>/projects/<slug>.md with
// YAML front-matter). Discovery of skills, recipes and agents stays in
// core/extension/platform; this package writes what Desktop's skill and
// project editors change, and exports/imports one source as JSON.
package sources
