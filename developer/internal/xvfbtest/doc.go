// Package xvfbtest starts a private Xvfb for tests of the X11 screen path.
package xvfbtest
