package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"yui/app"
	"yui/transport/localserver"
)

const serversUsage = `usage: yui servers [--ports 8880,9880,…]

Lists the model, speech and transcription servers running on this
machine, one a line: kind (chat, speech or transcription), name, base URL
and what it offers. Only loopback ports are asked, all at once; none found
is no error.
`

func runServers(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("yui servers", flag.ContinueOnError)
	ports := fs.String("ports", "", "ask these loopback `ports` (comma-separated) instead of the usual ones")
	if code, ok := parseFlags(fs, serversUsage, args, stderr); !ok {
		return code
	}
	var o app.ServersOptions
	if *ports != "" {
		list, err := parsePorts(*ports)
		if err != nil {
			fmt.Fprintln(stderr, "yui servers:", err)
			return 2
		}
		o.AudioPorts = list
		o.ChatPorts = []localserver.Port{}
		for _, p := range list {
			o.ChatPorts = append(o.ChatPorts, localserver.Port{Port: p})
		}
	}
	return report(stderr, app.PrintServers(context.Background(), stdout, o))
}

func parsePorts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("--ports: %q is not a port", f)
		}
		out = append(out, n)
	}
	return out, nil
}
