package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"example.com/terraform-provider-httpapi/api"
)

// apiClient talks to the httpapi service. Every request carries the operation's context, so Terraform timeouts
// (which SDKv2 turns into context deadlines) end requests that take too long.
type apiClient struct {
	endpoint *url.URL
	token    string
	http     *http.Client
	// settings are the provider settings of settings.go as Configure received them, for httpapi_settings.
	settings map[string]any
}

// httpError is a non-2xx answer; Status lets callers tell "gone" (404) from failures.
type httpError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *httpError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Status, e.Message)
}

func isNotFound(err error) bool {
	he, ok := err.(*httpError)
	return ok && he.Status == http.StatusNotFound
}

// newAPIClient accepts only http URLs on loopback hosts: the service is a test peer on this machine.
func newAPIClient(endpoint, token string) (*apiClient, error) {
	u, err := url.Parse(strings.TrimRight(endpoint, "/"))
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q must be an http://host:port URL", endpoint)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("endpoint %q is not a loopback address; httpapi only talks to 127.0.0.1, ::1 or localhost", endpoint)
	}
	return &apiClient{endpoint: u, token: token, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}, nil
}

func (c *apiClient) do(ctx context.Context, method, path string, body any, out any) error {
	var reader io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint.String()+path, reader)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		return &httpError{Method: method, Path: path, Status: resp.StatusCode, Message: msg}
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
		}
	}
	return nil
}

func (c *apiClient) create(ctx context.Context, in api.ItemInput) (*api.Item, error) {
	var it api.Item
	return &it, c.do(ctx, http.MethodPost, "/items", in, &it)
}

func (c *apiClient) get(ctx context.Context, id string) (*api.Item, error) {
	var it api.Item
	return &it, c.do(ctx, http.MethodGet, "/items/"+url.PathEscape(id), nil, &it)
}

func (c *apiClient) put(ctx context.Context, id string, in api.ItemInput) (*api.Item, error) {
	var it api.Item
	return &it, c.do(ctx, http.MethodPut, "/items/"+url.PathEscape(id), in, &it)
}

func (c *apiClient) delete(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/items/"+url.PathEscape(id), nil, nil)
}

func (c *apiClient) list(ctx context.Context, name, prefix string) ([]api.Item, error) {
	q := url.Values{}
	if name != "" {
		q.Set("name", name)
	}
	if prefix != "" {
		q.Set("name_prefix", prefix)
	}
	var items []api.Item
	path := "/items"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return items, c.do(ctx, http.MethodGet, path, nil, &items)
}

// findByName looks an item up after a failed create. It runs on its own short deadline: the operation's context may
// be the one that just expired.
func (c *apiClient) findByName(ctx context.Context, name string) (*api.Item, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	items, err := c.list(ctx, name, "")
	if err != nil || len(items) == 0 {
		return nil, err
	}
	return &items[0], nil
}
