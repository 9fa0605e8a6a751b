package httpapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"
)

var fingerprintRE = regexp.MustCompile(`^([0-9A-F]{2}:){31}[0-9A-F]{2}$`)

func TestLoadOrCreateCert(t *testing.T) {
	dir := t.TempDir()
	cert, fp, err := LoadOrCreateCert(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !fingerprintRE.MatchString(fp) {
		t.Fatalf("fingerprint %q", fp)
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if leaf.Subject.CommonName != CertCommonName || fmt.Sprint(leaf.DNSNames) != "[localhost]" || fmt.Sprint(leaf.IPAddresses) != "[127.0.0.1]" {
		t.Fatalf("cert subject %q dns %v ips %v", leaf.Subject.CommonName, leaf.DNSNames, leaf.IPAddresses)
	}
	for _, name := range []string{"server.pem", "server.key"} {
		fi, err := os.Stat(filepath.Join(dir, "tls", name))
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode %v", name, fi.Mode())
		}
	}
	// Cached: the same certificate comes back.
	_, fp2, err := LoadOrCreateCert(dir, "", "")
	if err != nil || fp2 != fp {
		t.Fatalf("second load %q %v, want %q", fp2, err, fp)
	}
	// Explicit paths load that pair.
	_, fp3, err := LoadOrCreateCert(t.TempDir(), filepath.Join(dir, "tls", "server.pem"), filepath.Join(dir, "tls", "server.key"))
	if err != nil || fp3 != fp {
		t.Fatalf("explicit load %q %v", fp3, err)
	}
	if _, _, err := LoadOrCreateCert(dir, "a.pem", ""); !errors.Is(err, ErrCertPair) {
		t.Fatalf("half a pair: %v", err)
	}
	// A broken cache is replaced.
	if err := os.WriteFile(filepath.Join(dir, "tls", "server.pem"), []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, fp4, err := LoadOrCreateCert(dir, "", ""); err != nil || fp4 == fp {
		t.Fatalf("broken cache: %q %v", fp4, err)
	}
}

func TestFingerprintFormat(t *testing.T) {
	got := Fingerprint([]byte("abc"))
	want := "BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"
	if got != want {
		t.Fatalf("%s, want %s", got, want)
	}
}

// pinnedClient trusts exactly the certificate with fingerprint fp, as the
// desktop does.
func pinnedClient(fp string) *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || Fingerprint(raw[0]) != fp {
				return errors.New("certificate fingerprint mismatch")
			}
			return nil
		},
	}}}
}

func TestServeHTTPSAndGracefulShutdown(t *testing.T) {
	e := newTestEnv(t, "auto")
	cert, fp, err := LoadOrCreateCert(t.TempDir(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, e.srv, &cert) }()
	base := "https://" + ln.Addr().String()
	client := pinnedClient(fp)
	defer client.CloseIdleConnections()
	resp, err := client.Get(base + "/status")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Fatalf("status body %q", body)
	}
	if _, err := pinnedClient("00:11").Get(base + "/status"); err == nil {
		t.Fatal("a wrong pin was accepted")
	}
	// An open event stream does not hold shutdown up.
	id := e.startSession()
	req, _ := http.NewRequest("GET", base+"/sessions/"+id+"/events", nil)
	req.Header.Set("X-Secret-Key", testSecret)
	stream, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown blocked by an open stream")
	}
}
