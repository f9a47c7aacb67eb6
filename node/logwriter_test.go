package node

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestLogWriterLevels: raft's lines keep their levels, except the first
// election, which every node holds at its start and is no warning.
func TestLogWriterLevels(t *testing.T) {
	var buf bytes.Buffer
	w := logWriter{slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, line := range []string{
		"[WARN]  raft: heartbeat timeout reached, starting election: last-leader-addr= last-leader-id=",
		"[WARN]  raft: heartbeat timeout reached, starting election: last-leader-addr=127.0.0.1:8300 last-leader-id=node_1",
		"[INFO]  raft: entering leader state",
		"[ERROR] raft: failed to appendEntries",
	} {
		w.Write([]byte(line + "\n"))
	}
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{"level=INFO", "level=WARN", "level=INFO", "level=WARN"}
	for i, l := range got {
		if !strings.Contains(l, want[i]) || strings.Contains(l, "[WARN]") || !strings.Contains(l, "msg=\"raft:") {
			t.Errorf("line %d: %s, want %s", i, l, want[i])
		}
	}
}
