package helperexe

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Name is a helper's file name: base, with .exe on windows.
func Name(base string) string { return NameFor(runtime.GOOS, base) }

// NameFor is Name for goos.
func NameFor(goos, base string) string {
	if goos == "windows" {
		return base + ".exe"
	}
	return base
}

// EnvError: the environment variable names a path that is not an
// executable file.
type EnvError struct {
	Env   string // the variable
	Value string // its value
	Err   error  // why it cannot run (innermost cause)
}

func (e *EnvError) Error() string {
	return fmt.Sprintf("%s is set to %s, which is not an executable file (%v)", e.Env, e.Value, e.Err)
}

// NotFoundError: the helper is neither named by the variable, nor beside
// the running executable, nor on PATH.
type NotFoundError struct {
	Name string // the helper's file name
	Env  string // the variable that was not set
	// Dir is the running executable's directory ("" when unknown).
	Dir string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s was not found (%s is not set, and it is neither %s nor on PATH)", e.Name, e.Env, e.Where())
}

// Where says where beside goose-acp was looked.
func (e *NotFoundError) Where() string {
	if e.Dir == "" {
		return "beside goose-acp"
	}
	return "in " + e.Dir + " beside goose-acp"
}

// Target is where the helper should be built: beside goose-acp.
func (e *NotFoundError) Target() string {
	if e.Dir == "" {
		return filepath.Join("<directory of goose-acp>", e.Name)
	}
	return filepath.Join(e.Dir, e.Name)
}

// Find returns the helper base (Name(base)) to run: $env when set (an
// *EnvError when that is no executable; env "" skips this), else the one beside executable
// (the running goose-acp, symlinks resolved; nil means os.Executable),
// else the first on PATH (made absolute); else a *NotFoundError.
func Find(base, env string, getenv func(string) string, executable func() (string, error)) (string, error) {
	if p := lookup(env, getenv); p != "" {
		found, err := exec.LookPath(p)
		if err != nil {
			return "", &EnvError{Env: env, Value: p, Err: innermost(err)}
		}
		return found, nil
	}
	name := Name(base)
	if executable == nil {
		executable = os.Executable
	}
	dir, dirErr := Dir(executable)
	if dirErr == nil {
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
		return p, nil
	}
	if dirErr != nil {
		dir = ""
	}
	return "", &NotFoundError{Name: name, Env: env, Dir: dir}
}

func lookup(env string, getenv func(string) string) string {
	if env == "" {
		return ""
	}
	return getenv(env)
}

// Dir is the directory of the running executable, symlinks resolved.
func Dir(executable func() (string, error)) (string, error) {
	exe, err := executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe), nil
}

func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
