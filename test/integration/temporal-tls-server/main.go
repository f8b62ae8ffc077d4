// A real Temporal server (go.temporal.io/server, the version the cached Temporal CLI v1.5.1 embeds) listening with
// mutual TLS, for test/integration/temporal-tls.test.ts. `temporal server start-dev` has no TLS option (its
// devserver package builds the same in-memory SQLite server but never sets Global.TLS), so this program builds that
// server itself and sets the frontend's TLS: the same code path a production Temporal server takes with
// `global.tls.frontend` in its YAML.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

const host = "127.0.0.1"

func main() {
	port := flag.Int("port", 0, "frontend gRPC port")
	ports := flag.String("internal-ports", "", "four free ports: frontend HTTP, history, matching, worker")
	cert := flag.String("cert", "", "server certificate (PEM)")
	key := flag.String("key", "", "server private key (PEM)")
	ca := flag.String("ca", "", "CA that signed the server and client certificates (PEM)")
	clientCert := flag.String("client-cert", "", "client certificate for the server's own system worker (PEM)")
	clientKey := flag.String("client-key", "", "client key for the server's own system worker (PEM)")
	flag.Parse()
	internal := strings.Split(*ports, ",")
	if *port == 0 || len(internal) != 4 || *cert == "" || *key == "" || *ca == "" || *clientCert == "" || *clientKey == "" {
		fmt.Fprintln(os.Stderr, "usage: temporal-tls-server -port N -internal-ports A,B,C,D -cert F -key F -ca F -client-cert F -client-key F")
		os.Exit(2)
	}
	numbers := make([]int, 4)
	for i, text := range internal {
		number, err := strconv.Atoi(text)
		if err != nil {
			fmt.Fprintln(os.Stderr, "internal-ports:", err)
			os.Exit(2)
		}
		numbers[i] = number
	}
	if err := run(*port, numbers, *cert, *key, *ca, *clientCert, *clientKey); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(port int, internal []int, cert, key, ca, clientCert, clientKey string) error {
	conf, err := serverConfig(port, internal)
	if err != nil {
		return err
	}
	conf.Global.TLS.Frontend.Server = config.ServerTLS{CertFile: cert, KeyFile: key, ClientCAFiles: []string{ca}, RequireClientAuth: true}
	conf.Global.TLS.Frontend.Client = config.ClientTLS{ServerName: "localhost", RootCAFiles: []string{ca}}
	conf.Global.TLS.SystemWorker = config.WorkerTLS{
		CertFile: clientCert,
		KeyFile:  clientKey,
		Client:   config.ClientTLS{ServerName: "localhost", RootCAFiles: []string{ca}},
	}
	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{Level: "warn", Format: "console"}))
	authorizer, err := authorization.GetAuthorizerFromConfig(&conf.Global.Authorization)
	if err != nil {
		return err
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&conf.Global.Authorization, logger)
	if err != nil {
		return err
	}
	hosts := map[primitives.ServiceName]static.Hosts{}
	for _, name := range []primitives.ServiceName{primitives.FrontendService, primitives.MatchingService, primitives.HistoryService, primitives.WorkerService} {
		hosts[name] = static.SingleLocalHost(fmt.Sprintf("%v:%v", host, conf.Services[string(name)].RPC.GRPCPort))
	}
	dynamic := dynamicconfig.StaticClient{dynamicconfig.HistoryCacheHostLevelMaxSize.Key(): 8096}
	server, err := temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
		temporal.WithDynamicConfigClient(dynamic),
	)
	if err != nil {
		return err
	}
	if err := server.Start(); err != nil {
		return err
	}
	fmt.Println("temporal-tls-server ready")
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	<-signals
	server.Stop()
	return nil
}

func serverConfig(port int, internal []int) (*config.Config, error) {
	var conf config.Config
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = host
	sql := config.SQL{
		PluginName:        sqliteplugin.PluginName,
		ConnectAttributes: map[string]string{"mode": "memory", "cache": "shared"},
		DatabaseName:      strconv.Itoa(rand.Intn(9999999)),
	}
	namespace, err := sqliteschema.NewNamespaceConfig("active", "default", false, nil)
	if err != nil {
		return nil, err
	}
	if err := sqliteschema.CreateNamespaces(&sql, namespace); err != nil {
		return nil, err
	}
	conf.Persistence.DefaultStore = "sqlite-default"
	conf.Persistence.VisibilityStore = "sqlite-default"
	conf.Persistence.NumHistoryShards = 1
	conf.Persistence.DataStores = map[string]config.DataStore{"sqlite-default": {SQL: &sql}}
	httpPort := internal[0]
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        "active",
		CurrentClusterName:       "active",
		ClusterInformation: map[string]cluster.ClusterInformation{
			"active": {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             fmt.Sprintf("%v:%v", host, port),
				HTTPAddress:            fmt.Sprintf("%v:%v", host, httpPort),
				ClusterID:              "9b3f6c2e-4a51-4d7e-8f0a-2c1d5e6f7a80",
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	service := func(grpcPort, httpPort int) config.Service {
		var s config.Service
		s.RPC.GRPCPort = grpcPort
		s.RPC.HTTPPort = httpPort
		s.RPC.BindOnIP = host
		return s
	}
	conf.Services = map[string]config.Service{
		"frontend": service(port, httpPort),
		"history":  service(internal[1], 0),
		"matching": service(internal[2], 0),
		"worker":   service(internal[3], 0),
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = fmt.Sprintf("%v:%v", host, port)
	return &conf, nil
}
