package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/goose-acp/goose-acp/core/plugins"
	"github.com/goose-acp/goose-acp/internal/cliconfig"
)

const pluginUsage = `Usage:
  goose-acp plugin install [--auto-update] <git-url|path>   install a plugin from a git repository
  goose-acp plugin update <name>                            update an installed plugin from its source
  goose-acp plugin list [--dir DIR]                         list the user's and the project's plugins
  goose-acp plugin remove <name>                            remove an installed plugin
  goose-acp plugin enable <name> [--dir DIR]                enable a plugin (a project plugin: run it in this project)
  goose-acp plugin disable <name> [--dir DIR]               disable a plugin

Plugins live in ~/.agents/plugins/<name> ($GOOSE_PATH_ROOT/.agents/plugins with GOOSE_PATH_ROOT)
and <project>/.agents/plugins/<name>; DIR is the project (default: the current directory).
A project's plugins run nothing until you enable them here.
`

// runPlugin is goose-acp plugin: goose's plugin install and update, and
// list, remove, enable and disable.
func runPlugin(env *environment, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(env.stderr, pluginUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	sub, rest := args[0], args[1:]
	fs := flag.NewFlagSet("plugin "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	autoUpdate := fs.Bool("auto-update", false, "")
	dir := fs.String("dir", "", "")
	if err := fs.Parse(rest); err != nil {
		fmt.Fprintf(env.stderr, "Error: %v\n\n%s", err, pluginUsage)
		return exitUsage
	}
	// Flags may follow the name too (goose-acp plugin enable demo --dir x).
	pos := fs.Args()
	if len(pos) > 1 {
		if err := fs.Parse(pos[1:]); err != nil {
			fmt.Fprintf(env.stderr, "Error: %v\n\n%s", err, pluginUsage)
			return exitUsage
		}
		pos = append(pos[:1], fs.Args()...)
	}
	want := map[string]int{"install": 1, "update": 1, "list": 0, "remove": 1, "enable": 1, "disable": 1}
	n, known := want[sub]
	switch {
	case !known:
		fmt.Fprintf(env.stderr, "Error: unknown plugin command %q\n\n%s", sub, pluginUsage)
		return exitUsage
	case len(pos) != n:
		fmt.Fprintf(env.stderr, "Error: goose-acp plugin %s takes %d argument(s)\n\n%s", sub, n, pluginUsage)
		return exitUsage
	}
	log, closeLog, err := cliconfig.NewLogger(cmp.Or(env.opts.logLevel, env.getenv("GOOSE_LOG_LEVEL"), "error"), env.opts.logFile, env.stderr, env.getenv)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitUsage
	}
	defer closeLog()
	rt, err := openConfig(env, log)
	if err != nil {
		fmt.Fprintln(env.stderr, "Error:", err)
		return exitFailed
	}
	project := *dir
	if project == "" {
		project, _ = os.Getwd()
	}
	p := rt.plugins
	out := env.stdout
	switch sub {
	case "install":
		got, err := p.Install(env.ctx, pos[0], *autoUpdate)
		if err != nil {
			return pluginFailed(env, err)
		}
		fmt.Fprintf(out, "✓ Installed %s plugin '%s' (%s)\n", got.Format, got.Name, got.Version)
		printInstalled(out, got)
	case "update":
		got, err := p.Update(env.ctx, pos[0])
		if err != nil {
			return pluginFailed(env, err)
		}
		fmt.Fprintf(out, "✓ Updated %s plugin '%s' (%s)\n", got.Format, got.Name, got.Version)
		printInstalled(out, got)
	case "remove":
		dir, err := p.Remove(pos[0])
		if err != nil {
			return pluginFailed(env, err)
		}
		fmt.Fprintf(out, "✓ Removed plugin '%s' from %s\n", pos[0], dir)
	case "enable":
		got, err := p.Enable(pos[0], project)
		if err != nil {
			return pluginFailed(env, err)
		}
		if got.Scope == plugins.ScopeProject {
			fmt.Fprintf(out, "✓ Enabled project plugin '%s' (%s) for this project; it runs in new sessions.\n", got.Name, got.Root)
			if what := got.WouldRun(); what != "" {
				fmt.Fprintf(out, "  %s\n", strings.Replace(what, "It would run", "It runs", 1))
			}
			fmt.Fprintln(out, "  If its files change, it is disabled again until you enable it again.")
		} else {
			fmt.Fprintf(out, "✓ Enabled plugin '%s' (%s)\n", got.Name, got.Root)
		}
	case "disable":
		got, err := p.Disable(pos[0], project)
		if err != nil {
			return pluginFailed(env, err)
		}
		fmt.Fprintf(out, "✓ Disabled plugin '%s' (%s)\n", got.Name, got.Root)
	case "list":
		all, err := p.List(project)
		if err != nil {
			return pluginFailed(env, err)
		}
		printPlugins(out, all)
	}
	return 0
}

func pluginFailed(env *environment, err error) int {
	fmt.Fprintln(env.stderr, "Error:", err)
	return exitFailed
}

func printInstalled(w io.Writer, got plugins.Installed) {
	fmt.Fprintf(w, "  Source: %s\n  Location: %s\n", got.Source, got.Dir)
	if len(got.Skills) == 0 {
		fmt.Fprintln(w, "  No skills imported.")
		return
	}
	fmt.Fprintln(w, "  Imported skills:")
	for _, s := range got.Skills {
		fmt.Fprintf(w, "    - %s\n", s)
	}
}

// stateText says what a plugin does, as plugin list shows it.
func stateText(p plugins.Plugin) string {
	switch p.State {
	case plugins.Active:
		return "enabled"
	case plugins.AwaitingConsent:
		return "not enabled: goose-acp plugin enable " + p.Name
	case plugins.Changed:
		return "changed since enabled: goose-acp plugin enable " + p.Name
	case plugins.Shadowed:
		return "shadowed by the plugin of the same name above"
	}
	return "disabled"
}

func printPlugins(w io.Writer, all []plugins.Plugin) {
	if len(all) == 0 {
		fmt.Fprintln(w, "No plugins found.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tSTATE\tVERSION\tLOCATION")
	for _, p := range all {
		version := "-"
		if m, err := plugins.ReadManifest(p.Root, ""); err == nil && m.Version != "" && !p.Claude() {
			version = m.Version
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Scope, stateText(p), version, p.Root)
	}
	tw.Flush()
}
