package permission

import (
	"regexp"
	"strings"
	"sync"
)

// Risk is a threat pattern's level; its Confidence is what goose scores it.
type Risk int

const (
	RiskLow Risk = iota
	RiskMedium
	RiskHigh
	RiskCritical
)

func (r Risk) String() string {
	return [...]string{"Low", "Medium", "High", "Critical"}[r]
}

// Confidence is goose's confidence_score for the level.
func (r Risk) Confidence() float64 {
	return [...]float64{0.45, 0.60, 0.75, 0.95}[r]
}

// Pattern is one shell-command threat pattern.
type Pattern struct {
	Name        string
	Description string
	Risk        Risk
	// re compiles on first use: compiling all of goose's patterns at
	// package init cost every goose-acp start about half a millisecond.
	re func() *regexp.Regexp
}

// Match is a pattern hit in a scanned text.
type Match struct {
	Pattern *Pattern
	Text    string
	Start   int
}

func pat(name, expr, desc string, risk Risk) *Pattern {
	return &Pattern{Name: name, Description: desc, Risk: risk,
		re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?i)" + expr) })}
}

// Patterns is goose's THREAT_PATTERNS set (security/patterns.rs), compiled
// case-insensitively.
var Patterns = []*Pattern{
	pat("rm_rf_root_bare", `rm\s+(-[rRfF]+\s+)*(-[rRfF]+|--recursive|--force|--no-preserve-root)(\s+(-[rRfF]+|--recursive|--force|--no-preserve-root))*\s+['"]?/(\*)?['"]?(\s|[;&|]|$)`, "Recursive deletion of root filesystem", RiskCritical),
	pat("rm_rf_home_or_root", `rm\s+((--[a-zA-Z][a-zA-Z\-]*|--|-[a-zA-Z]+)\s+)*(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dir|-d)(\s+(--[a-zA-Z][a-zA-Z\-]*|--|-[a-zA-Z]+))*\s+['"]?(~|\$HOME|\$\{HOME\}|/home|/root)/?(\*)?['"]?(\s|[;&|]|$)`, "Recursive deletion of home or root directory", RiskCritical),
	pat("dd_destruction", `dd\s+.*if=/dev/(zero|random|urandom).*of=/dev/[sh]d[a-z]`, "Disk destruction using dd command", RiskCritical),
	pat("format_drive", `(?:^|[\s;&|(`+"`"+`/"'])((?:[^\s;&|()`+"`"+`"']*[/\\])?(?:format|mkfs\.[a-z][a-z0-9]*))[ \t]+`, "Formatting system drives", RiskCritical),
	pat("curl_bash_execution", `(curl|wget)\s+.*\|\s*(bash|sh|zsh|fish|csh|tcsh)`, "Remote script execution via curl/wget piped to shell", RiskCritical),
	pat("bash_process_substitution", `bash\s*<\s*\(\s*(curl|wget)`, "Bash process substitution with remote content", RiskHigh),
	pat("python_remote_exec", `python[23]?\s+-c\s+.*urllib|requests.*exec`, "Python remote code execution", RiskHigh),
	pat("powershell_download_exec", `powershell.*DownloadString.*Invoke-Expression`, "PowerShell remote script execution", RiskHigh),
	pat("ssh_key_exfiltration", `(curl|wget).*-d.*\.ssh/(id_rsa|id_ed25519|id_ecdsa)`, "SSH key exfiltration", RiskHigh),
	pat("password_file_access", `(cat|grep|awk|sed).*(/etc/shadow|\.password)`, "Password/shadow file access", RiskHigh),
	pat("history_exfiltration", `(curl|wget).*-d.*\.(bash_history|zsh_history|history)`, "Command history exfiltration", RiskHigh),
	pat("crontab_modification", `(crontab\s+-e|echo.*>.*crontab|.*>\s*/var/spool/cron)`, "Crontab modification for persistence", RiskHigh),
	pat("systemd_service_creation", `systemctl.*enable|.*\.service.*>/etc/systemd`, "Systemd service creation", RiskHigh),
	pat("hosts_file_modification", `echo.*>(>?)\s*(/etc/hosts|hosts\.txt)|echo.*\|\s*(sudo\s+)?tee\s+(-a\s+)?/etc/hosts`, "Hosts file modification", RiskMedium),
	pat("netcat_listener", `nc\s+(-l|-p)\s+\d+`, "Netcat listener creation", RiskHigh),
	pat("reverse_shell", `(nc|netcat|bash|sh).*-e\s*(bash|sh|/bin/bash|/bin/sh)`, "Reverse shell creation", RiskCritical),
	pat("ssh_tunnel", `ssh\s+.*-[LRD]\s+\d+:`, "SSH tunnel creation", RiskMedium),
	pat("kill_security_process", `kill(all)?\s+.*\b(antivirus|firewall|defender|security|monitor)\b`, "Killing security processes", RiskHigh),
	pat("process_injection", `gdb\s+.*attach|ptrace.*PTRACE_POKETEXT`, "Process injection techniques", RiskHigh),
	pat("sudo_without_password", `echo.*NOPASSWD.*>.*sudoers`, "Sudo privilege escalation", RiskCritical),
	pat("suid_binary_creation", `chmod\s+[47][0-7][0-7][0-7]|chmod\s+\+s`, "SUID binary creation", RiskHigh),
	pat("encoded_commands", `(base64|hex|url).*decode.*\|\s*(bash|sh)`, "Encoded command execution", RiskHigh),
	pat("base64_encoded_shell", `(echo|printf)\s+[A-Za-z0-9+/=]{20,}\s*\|\s*base64\s+-d\s*\|\s*(bash|sh|zsh)`, "Base64 encoded shell commands", RiskHigh),
	pat("hex_encoded_commands", `(echo|printf)\s+[0-9a-fA-F\\x]{20,}\s*\|\s*(xxd|od).*\|\s*(bash|sh)`, "Hex encoded command execution", RiskHigh),
	pat("eval_with_variables", `eval\s+\$[A-Za-z_][A-Za-z0-9_]*|\beval\s+.*\$\{`, "Eval with variable substitution", RiskHigh),
	pat("indirect_command_execution", `\$\([^)]*\$\([^)]*\)[^)]*\)|`+"`[^`]*`[^`]*`", "Nested command substitution", RiskLow),
	pat("unicode_obfuscation", `(\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}){3,}`, "Unicode character obfuscation (3+ consecutive escapes)", RiskMedium),
	pat("docker_privileged_exec", `docker\s+(run|exec).*--privileged`, "Docker privileged container execution", RiskHigh),
	pat("container_escape", `(chroot|unshare|nsenter).*--mount|--pid|--net`, "Container escape techniques", RiskHigh),
	pat("kernel_module_manipulation", `(insmod|rmmod|modprobe).*\.ko`, "Kernel module manipulation", RiskCritical),
	pat("memory_dump", `(gcore|gdb.*dump|/proc/[0-9]+/mem)`, "Memory dumping techniques", RiskHigh),
	pat("log_manipulation", `(truncate.*log|rm\s+((--[a-zA-Z][a-zA-Z\-]*|--|-[a-zA-Z]+)\s+)*/var/log(/|\s|[;&|]|$)|echo\s*>\s*/var/log)`, "Log file manipulation or deletion", RiskMedium),
	pat("file_timestamp_manipulation", `touch\s+-[amt]\s+|utimes|futimes`, "File timestamp manipulation", RiskLow),
	pat("steganography_tools", `\b(steghide|outguess|jphide|steganos)\b`, "Steganography tools usage", RiskMedium),
	pat("network_scanning", `\b(nmap|masscan|zmap|unicornscan)\b.*-[sS]`, "Network scanning tools", RiskMedium),
	pat("password_cracking_tools", `\bjohn\s+--[a-z]|\b(hashcat|hydra|medusa|brutespray)\b`, "Password cracking tools", RiskHigh),
}

// Scan returns every pattern hit in text, highest risk first, then by
// position, as goose's scanner orders them.
func Scan(text string) []Match {
	var out []Match
	for _, p := range Patterns {
		if p.Name == "format_drive" {
			if m, ok := formatDriveMatch(p, text); ok {
				out = append(out, m)
			}
			continue
		}
		if loc := p.re().FindStringIndex(text); loc != nil {
			out = append(out, Match{Pattern: p, Text: text[loc[0]:loc[1]], Start: loc[0]})
		}
	}
	sortMatches(out)
	return out
}

func sortMatches(ms []Match) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && less(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func less(a, b Match) bool {
	if a.Pattern.Risk != b.Pattern.Risk {
		return a.Pattern.Risk > b.Pattern.Risk
	}
	return a.Start < b.Start
}

var driveTarget = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/dev/[sh]d[a-z][0-9]*$`) })

// formatDriveMatch keeps goose's shell-word rule: a format/mkfs command
// only matches when one of its arguments (up to the next shell separator)
// is a whole system drive and the command is not a dry run or --help.
func formatDriveMatch(p *Pattern, text string) (Match, bool) {
	for _, loc := range p.re().FindAllStringSubmatchIndex(text, -1) {
		words := shellWords(text[loc[2]:])
		if len(words) < 2 || !writesDrive(words[1:]) {
			continue
		}
		return Match{Pattern: p, Text: text[loc[2]:loc[3]], Start: loc[2]}, true
	}
	return Match{}, false
}

func writesDrive(args []string) bool {
	target := false
	for _, a := range args {
		if a == "--help" || a == "--version" || isDryRunFlags(a) {
			return false
		}
		if driveTarget().MatchString(a) {
			target = true
		}
	}
	return target
}

// isDryRunFlags is a short-flag cluster made only of non-writing mkfs
// flags that includes -n (no-op) or -V (version).
func isDryRunFlags(a string) bool {
	if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") || len(a) < 2 {
		return false
	}
	flags := a[1:]
	if strings.Trim(flags, "cDFjnqSvV") != "" {
		return false
	}
	return strings.ContainsAny(flags, "nV")
}

// shellWords splits text into words up to the first shell separator,
// honouring quotes and backslash escapes.
func shellWords(text string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(c)
			}
		case c == '\\':
			in = true
			if i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			}
		case c == '\'' || c == '"':
			in, quote = true, c
		case strings.ContainsRune("\n;&|<>)`", c):
			flush()
			return words
		case c == '#' && !in:
			return words
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		default:
			in = true
			cur.WriteRune(c)
		}
	}
	flush()
	return words
}
