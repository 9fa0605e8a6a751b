package httpapi

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Certificate names goosed uses.
const (
	CertCommonName = "goosed localhost"
	certFile       = "server.pem"
	keyFile        = "server.key"
)

// ErrCertPair: only one of the certificate and key paths was given.
var ErrCertPair = errors.New("GOOSE_TLS_CERT_PATH and GOOSE_TLS_KEY_PATH must be set together")

// LoadOrCreateCert returns the server certificate and goosed's fingerprint
// of it. With certPath and keyPath it loads that pair; with neither it
// loads <configDir>/tls/server.{pem,key}, creating a self-signed
// certificate for 127.0.0.1 and localhost when they are missing or broken.
func LoadOrCreateCert(configDir, certPath, keyPath string) (tls.Certificate, string, error) {
	if (certPath == "") != (keyPath == "") {
		return tls.Certificate{}, "", ErrCertPair
	}
	if certPath != "" {
		cert, err := tls.LoadX509KeyPair(certPath, keyPath)
		if err != nil {
			return tls.Certificate{}, "", fmt.Errorf("loading TLS certificate: %w", err)
		}
		return cert, Fingerprint(cert.Certificate[0]), nil
	}
	dir := filepath.Join(configDir, "tls")
	certPath, keyPath = filepath.Join(dir, certFile), filepath.Join(dir, keyFile)
	if cert, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil {
		return cert, Fingerprint(cert.Certificate[0]), nil
	}
	certPEM, keyPEM, err := selfSigned(time.Now())
	if err != nil {
		return tls.Certificate{}, "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, "", fmt.Errorf("creating TLS dir: %w", err)
	}
	if err := os.WriteFile(certPath, certPEM, 0o600); err != nil {
		return tls.Certificate{}, "", fmt.Errorf("writing TLS certificate: %w", err)
	}
	if err := os.WriteFile(keyPath, keyPEM, 0o600); err != nil {
		return tls.Certificate{}, "", fmt.Errorf("writing TLS key: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, "", fmt.Errorf("loading TLS certificate: %w", err)
	}
	return cert, Fingerprint(cert.Certificate[0]), nil
}

// selfSigned makes an ECDSA P-256 certificate for 127.0.0.1 and localhost.
func selfSigned(now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generating TLS key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, fmt.Errorf("generating serial: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: CertCommonName},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(20, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("creating TLS certificate: %w", err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding TLS key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}), nil
}

// Fingerprint is goosed's GOOSED_CERT_FINGERPRINT value: the SHA-256 of
// the DER certificate as uppercase hex bytes joined by ':'.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	h := strings.ToUpper(hex.EncodeToString(sum[:]))
	parts := make([]string, 0, len(sum))
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":")
}

// ShutdownTimeout bounds graceful shutdown.
const ShutdownTimeout = 10 * time.Second

// ListenAndServe serves h on addr (HTTPS when cert is non-nil) until ctx
// is cancelled, then shuts down gracefully. A listening failure is
// returned at once.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, cert *tls.Certificate) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	return Serve(ctx, ln, h, cert)
}

// Serve is ListenAndServe on an existing listener.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, cert *tls.Certificate) error {
	// Streams (SSE, WebSocket) never go idle: shutting down cancels every
	// request context so their handlers return.
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := &http.Server{Handler: timeBody(h), ReadHeaderTimeout: 30 * time.Second, IdleTimeout: serverIdleTimeout,
		BaseContext: func(net.Listener) context.Context { return base },
		// Never the process's stderr default logger (handshake noise from
		// clients that pin another certificate).
		ErrorLog: log.New(io.Discard, "", 0)}
	srv.RegisterOnShutdown(cancelBase)
	// HTTP/1.1 plus HTTP/2 with prior knowledge on plain TCP: the ACP
	// streamable-HTTP transport at /acp asks for HTTP/2; browsers and
	// WebSockets keep HTTP/1.1 (they never speak h2c).
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS12}
		ln = tls.NewListener(ln, srv.TLSConfig)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
