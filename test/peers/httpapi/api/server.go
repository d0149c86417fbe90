// Package api is a small HTTP JSON service that stores "items" in memory, listens on loopback only, and fails on
// demand (faults set by the test through /_faults), so that a real Terraform provider can be driven into partial
// failures against a real service.
package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// Settings is the item's one configuration object (a max-items-1 block in Terraform).
type Settings struct {
	Mode    string `json:"mode"`
	Enabled bool   `json:"enabled"`
	Retries int64  `json:"retries"`
}

// Rule is one entry of the item's rule list.
type Rule struct {
	Port     int64  `json:"port"`
	Protocol string `json:"protocol"`
	Cidr     string `json:"cidr,omitempty"`
}

// Item is what the service stores. Size is a pointer so that "never configured" differs from 0.
type Item struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Size        *int64            `json:"size,omitempty"`
	Description string            `json:"description,omitempty"`
	Tags        map[string]string `json:"tags,omitempty"`
	Settings    *Settings         `json:"settings,omitempty"`
	Rules       []Rule            `json:"rules,omitempty"`
	Etag        string            `json:"etag"`
	Revision    int64             `json:"revision"`
	CreatedAt   string            `json:"created_at"`
	UpdatedAt   string            `json:"updated_at"`
}

// Fault names accepted by POST /_faults. A value is a count (the next N matching requests fail), true (every one
// until cleared) or false/0 (off). delay_ms instead delays every write (POST, PUT, DELETE) on /items; reads stay fast,
// so a client can look around after giving up on a slow write.
var faultNames = []string{
	"fail_after_create", // POST /items stores the item, then answers 500
	"fail_create",       // POST /items answers 500 and stores nothing
	"fail_update",       // PUT /items/{id} answers 500 and changes nothing
	"fail_after_update", // PUT /items/{id} stores the change, then answers 500
	"fail_read",         // GET /items/{id} answers 500
	"fail_delete",       // DELETE /items/{id} answers 500 and keeps the item
}

const sticky = -1

// Server is the service's state; its handler is safe for concurrent use.
type Server struct {
	token string

	mu      sync.Mutex
	items   map[string]*Item
	nextID  int64
	faults  map[string]int
	delay   time.Duration
	stats   map[string]int64
	started time.Time
}

// New returns an empty service. A non-empty token is required as `Authorization: Bearer <token>` on /items.
func New(token string) *Server {
	return &Server{token: token, items: map[string]*Item{}, faults: map[string]int{}, stats: map[string]int64{}, started: time.Now()}
}

// ListenLoopback refuses any address that is not a loopback IP: this service exists for tests on one machine.
func ListenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("httpapi: refusing to listen on %q: only loopback IP addresses (127.0.0.1, ::1) are allowed", addr)
	}
	return net.Listen("tcp", addr)
}

func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]string{"status": "ok"}) })
	mux.HandleFunc("GET /items", s.auth(s.list))
	mux.HandleFunc("POST /items", s.auth(s.create))
	mux.HandleFunc("GET /items/{id}", s.auth(s.get))
	mux.HandleFunc("PUT /items/{id}", s.auth(s.put))
	mux.HandleFunc("DELETE /items/{id}", s.auth(s.delete))
	// Test controls: no token, they are how the test steers and inspects the service.
	mux.HandleFunc("GET /_faults", s.getFaults)
	mux.HandleFunc("POST /_faults", s.setFaults)
	mux.HandleFunc("DELETE /_faults", s.clearFaults)
	mux.HandleFunc("GET /_stats", s.getStats)
	mux.HandleFunc("POST /_reset", s.reset)
	return mux
}

type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, apiError{Error: fmt.Sprintf(format, args...)})
}

func (s *Server) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.token != "" && r.Header.Get("Authorization") != "Bearer "+s.token {
			s.count("unauthorized")
			fail(w, http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		s.mu.Lock()
		delay := s.delay
		s.mu.Unlock()
		if delay > 0 && r.Method != http.MethodGet {
			// A client that gives up (its context ended) leaves before anything is stored.
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				s.count("abandoned")
				return
			}
		}
		next(w, r)
	}
}

func (s *Server) count(what string) {
	s.mu.Lock()
	s.stats[what]++
	s.mu.Unlock()
}

// takeFault consumes one firing of the named fault; the caller holds s.mu.
func (s *Server) takeFault(name string) bool {
	n := s.faults[name]
	switch {
	case n == sticky:
	case n > 0:
		s.faults[name] = n - 1
	default:
		return false
	}
	s.stats["faults_fired"]++
	s.stats["fault_"+name]++
	return true
}

func etag(it *Item) string {
	b, _ := json.Marshal([]any{it.Name, it.Size, it.Description, it.Tags, it.Settings, it.Rules, it.Revision})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

func clone(it *Item) *Item {
	c := *it
	if it.Size != nil {
		v := *it.Size
		c.Size = &v
	}
	if it.Tags != nil {
		c.Tags = make(map[string]string, len(it.Tags))
		for k, v := range it.Tags {
			c.Tags[k] = v
		}
	}
	if it.Settings != nil {
		st := *it.Settings
		c.Settings = &st
	}
	c.Rules = append([]Rule(nil), it.Rules...)
	return &c
}

// ItemInput is the body of POST /items and PUT /items/{id}: everything but what the service computes.
type ItemInput struct {
	Name        string            `json:"name"`
	Size        *int64            `json:"size,omitempty"`
	Description string            `json:"description,omitempty"`
	Tags        map[string]string `json:"tags,omitempty"`
	Settings    *Settings         `json:"settings,omitempty"`
	Rules       []Rule            `json:"rules,omitempty"`
}

func decodeInput(r *http.Request) (ItemInput, error) {
	var in ItemInput
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("invalid JSON body: %w", err)
	}
	if strings.TrimSpace(in.Name) == "" {
		return in, errors.New("name is required")
	}
	for i, rule := range in.Rules {
		if rule.Port < 1 || rule.Port > 65535 {
			return in, fmt.Errorf("rules[%d].port must be 1..65535, got %d", i, rule.Port)
		}
		if rule.Protocol != "tcp" && rule.Protocol != "udp" {
			return in, fmt.Errorf("rules[%d].protocol must be tcp or udp, got %q", i, rule.Protocol)
		}
	}
	return in, nil
}

func (s *Server) apply(it *Item, in ItemInput) {
	it.Name, it.Size, it.Description, it.Tags, it.Settings, it.Rules = in.Name, in.Size, in.Description, in.Tags, in.Settings, in.Rules
	it.Revision++
	it.UpdatedAt = time.Now().UTC().Format(time.RFC3339Nano)
	it.Etag = etag(it)
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	name, prefix := r.URL.Query().Get("name"), r.URL.Query().Get("name_prefix")
	s.mu.Lock()
	s.stats["lists"]++
	out := []*Item{}
	for _, it := range s.items {
		if (name == "" || it.Name == name) && strings.HasPrefix(it.Name, prefix) {
			out = append(out, clone(it))
		}
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	writeJSON(w, 200, out)
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	in, err := decodeInput(r)
	if err != nil {
		fail(w, http.StatusBadRequest, "%s", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats["creates"]++
	if s.takeFault("fail_create") {
		fail(w, http.StatusInternalServerError, "injected fault fail_create: nothing was stored")
		return
	}
	for _, it := range s.items {
		if it.Name == in.Name {
			fail(w, http.StatusConflict, "an item named %q already exists: %s", in.Name, it.ID)
			return
		}
	}
	s.nextID++
	it := &Item{ID: fmt.Sprintf("item-%04d", s.nextID), CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	s.apply(it, in)
	s.items[it.ID] = it
	if s.takeFault("fail_after_create") {
		fail(w, http.StatusInternalServerError, "injected fault fail_after_create: the item was stored, then the request failed")
		return
	}
	writeJSON(w, http.StatusCreated, clone(it))
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats["reads"]++
	if s.takeFault("fail_read") {
		fail(w, http.StatusInternalServerError, "injected fault fail_read")
		return
	}
	it, ok := s.items[r.PathValue("id")]
	if !ok {
		fail(w, http.StatusNotFound, "no item %s", r.PathValue("id"))
		return
	}
	writeJSON(w, 200, clone(it))
}

func (s *Server) put(w http.ResponseWriter, r *http.Request) {
	in, err := decodeInput(r)
	if err != nil {
		fail(w, http.StatusBadRequest, "%s", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats["updates"]++
	it, ok := s.items[r.PathValue("id")]
	if !ok {
		fail(w, http.StatusNotFound, "no item %s", r.PathValue("id"))
		return
	}
	if in.Name != it.Name {
		fail(w, http.StatusBadRequest, "name cannot change (%q → %q); create a new item", it.Name, in.Name)
		return
	}
	if s.takeFault("fail_update") {
		fail(w, http.StatusInternalServerError, "injected fault fail_update: nothing was changed")
		return
	}
	s.apply(it, in)
	if s.takeFault("fail_after_update") {
		fail(w, http.StatusInternalServerError, "injected fault fail_after_update: the change was stored, then the request failed")
		return
	}
	writeJSON(w, 200, clone(it))
}

func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats["deletes"]++
	if s.takeFault("fail_delete") {
		fail(w, http.StatusInternalServerError, "injected fault fail_delete: the item was kept")
		return
	}
	if _, ok := s.items[r.PathValue("id")]; !ok {
		fail(w, http.StatusNotFound, "no item %s", r.PathValue("id"))
		return
	}
	delete(s.items, r.PathValue("id"))
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) faultsView() map[string]any {
	out := map[string]any{"delay_ms": s.delay.Milliseconds()}
	for _, n := range faultNames {
		switch v := s.faults[n]; {
		case v == sticky:
			out[n] = true
		case v > 0:
			out[n] = v
		default:
			out[n] = false
		}
	}
	return out
}

func (s *Server) getFaults(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, 200, s.faultsView())
}

// setFaults merges the body into the current faults: {"fail_after_create": true, "fail_update": 2, "delay_ms": 500}.
func (s *Server) setFaults(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		fail(w, http.StatusBadRequest, "invalid JSON body: %s", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range body {
		if k == "delay_ms" {
			ms, ok := v.(float64)
			if !ok || ms < 0 {
				fail(w, http.StatusBadRequest, "delay_ms must be a non-negative number")
				return
			}
			s.delay = time.Duration(ms) * time.Millisecond
			continue
		}
		known := false
		for _, n := range faultNames {
			known = known || n == k
		}
		if !known {
			fail(w, http.StatusBadRequest, "unknown fault %q; known: delay_ms, %s", k, strings.Join(faultNames, ", "))
			return
		}
		switch x := v.(type) {
		case bool:
			s.faults[k] = 0
			if x {
				s.faults[k] = sticky
			}
		case float64:
			if x < 0 {
				fail(w, http.StatusBadRequest, "%s: a count must not be negative", k)
				return
			}
			s.faults[k] = int(x)
		default:
			fail(w, http.StatusBadRequest, "%s must be a boolean or a count", k)
			return
		}
	}
	writeJSON(w, 200, s.faultsView())
}

func (s *Server) clearFaults(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = map[string]int{}
	s.delay = 0
	writeJSON(w, 200, s.faultsView())
}

func (s *Server) getStats(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]any{"items": len(s.items), "uptime_ms": time.Since(s.started).Milliseconds()}
	for k, v := range s.stats {
		out[k] = v
	}
	writeJSON(w, 200, out)
}

func (s *Server) reset(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = map[string]*Item{}
	s.faults = map[string]int{}
	s.delay = 0
	s.stats = map[string]int64{}
	w.WriteHeader(http.StatusNoContent)
}

// Serve runs the service on l until ctx ends.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
