package chromium

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// TreePSS returns the proportional set size, in bytes, of a process and all
// its descendants: the memory a browser really costs, shared pages split
// among the processes that share them.
func TreePSS(root int) int64 {
	var total int64
	for _, pid := range tree(root) {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				total += kb << 10
				break
			}
		}
	}
	return total
}

// tree lists root and its descendants, from /proc.
func tree(root int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 {
			parent[pid], _ = strconv.Atoi(fields[1])
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		for pid, pp := range parent {
			if pp == out[i] {
				out = append(out, pid)
			}
		}
	}
	return out
}

// ProcessTree lists the browser's processes, for tests and operators.
func (e *Engine) ProcessTree() []int {
	pid := e.PID()
	if pid == 0 {
		return nil
	}
	return tree(pid)
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times:
// 100 on every Linux this runs on.
const clockTicks = 100

// TreeCPU returns the CPU time, user and system, that a process and its
// descendants have used: what the browser costs in processor time. The
// living processes count their own time, and the time of the children
// they have reaped (cutime, cstime), so a helper that has exited counts
// too once its parent has waited for it.
func TreeCPU(root int) time.Duration {
	var ticks int64
	for _, pid := range tree(root) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(stat)
		// Fields after the command: state is 0, utime 11, stime 12,
		// cutime 13, cstime 14.
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 14 {
			for _, f := range fields[11:15] {
				v, _ := strconv.ParseInt(f, 10, 64)
				ticks += v
			}
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks
}
