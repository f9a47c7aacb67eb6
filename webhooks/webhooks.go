package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Payload is the body of a delivery (spec "Webhook delivery payload").
type Payload struct {
	V     int             `json:"v"`
	ID    string          `json:"id"`
	Event string          `json:"event"`
	OrgID string          `json:"orgId"`
	At    time.Time       `json:"at"`
	Data  json.RawMessage `json:"data"`
}

// Headers of a delivery.
const (
	HeaderEvent     = "x-service-event"
	HeaderDelivery  = "x-service-delivery"
	HeaderSignature = "x-service-signature"
)

// Sign returns the x-service-signature value for body sent at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Schedule is the wait before each retry (docs/design.md "Webhooks": about 30 s, 2, 5, 10,
// 15 and 30 minutes, about an hour in all), each jittered by ±20 %.
var Schedule = []time.Duration{30 * time.Second, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute}

// Jitter is the spread of each wait either way.
const Jitter = 0.2

// SwitchOffAfter is how many failed attempts in a row switch an endpoint off
// (spec "Retries and response handling"); it stays listed with the reason,
// and its deliveries wait for it to be enabled again. The state machine
// counts them (storage), so every replica switches it off at the same
// attempt.
const SwitchOffAfter = 20

// After decides what follows attempt n (1-based) of a delivery, made at at,
// that the receiver answered with status (0: no answer) and header: the one
// place that says whether a delivery is done, retried and when, or failed
// for good. It returns Delivered, Permanent (for a permanent answer, or when
// the schedule's retries are used up), or Retry with the time of the next
// attempt, jittered with r and no sooner than a Retry-After asks.
func After(schedule []time.Duration, n, status int, header http.Header, at time.Time, r *rand.Rand) (Outcome, time.Time) {
	o := Classify(status)
	if o != Retry {
		return o, time.Time{}
	}
	delay, ok := NextDelay(schedule, n, r, RetryAfter(header, at))
	if !ok {
		return Permanent, time.Time{}
	}
	return Retry, at.Add(delay)
}

// NextDelay returns the wait before retry n (1-based) of schedule, jittered
// with r, or false when the retries are used up. retryAfter, from a 408 or
// 429 answer, lengthens the wait to at least that.
func NextDelay(schedule []time.Duration, n int, r *rand.Rand, retryAfter time.Duration) (time.Duration, bool) {
	if n < 1 || n > len(schedule) {
		return 0, false
	}
	base := float64(schedule[n-1])
	d := time.Duration(base * (1 - Jitter + 2*Jitter*r.Float64()))
	return max(d, retryAfter), true
}

// Outcome is what a receiver's answer means for a delivery.
type Outcome int

// Outcomes of an attempt.
const (
	Delivered Outcome = iota
	// Retry means try again later: 5xx, 408, 429, or no answer.
	Retry
	// Permanent means never retry: 3xx (redirects are not followed) and 4xx
	// other than 408 and 429.
	Permanent
)

// Classify reads a receiver's status; 0 means no answer (a network error).
func Classify(status int) Outcome {
	switch {
	case status >= 200 && status < 300:
		return Delivered
	case status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500 || status == 0:
		return Retry
	default:
		return Permanent
	}
}

// RetryAfter reads a Retry-After header in seconds or as an HTTP date,
// bounded to an hour.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	var d time.Duration
	if s, err := strconv.Atoi(v); err == nil {
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	return min(max(d, 0), time.Hour)
}

// Describe is a short human reason for an attempt's failure.
func Describe(status int, err error) string {
	if status == 0 {
		return "no answer: " + Explain(err)
	}
	return fmt.Sprintf("HTTP %d", status)
}
