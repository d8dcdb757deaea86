#!/usr/bin/env bash
# Installs (when missing) and starts the search engines the search tests run against, without Docker, from Maven
# Central artifacts (integ-test zips): OpenSearch with the k-NN plugin, the newest Elasticsearch 8.x, and the oldest
# Elasticsearch 8.x we test. Single node, loopback only, security off, 512 MB heaps, run by the unprivileged user
# `gloss-engines` (the engines refuse root; without root they run as the calling user).
#
# Idempotent and cached: downloads and installs live in GLOSS_ENGINES_DIR (default /var/cache/gloss-engines as
# root, ~/.cache/gloss/engines otherwise), never in the repository; a second run with the engines up takes seconds.
#   GLOSS_ENGINES   which to run, default "opensearch elasticsearch elasticsearch-oldest"; "none" runs none
#   scripts/engines.sh stop   stops the engines this script started (by their pid files)
# Called by scripts/services.sh; Java 17, Maven and unzip come from Debian's packages when missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

OPENSEARCH_VERSION=2.19.1 # the k-NN plugin on Central: 2.19.1.0 (and 3.x)
ELASTICSEARCH_VERSION=8.19.21
ELASTICSEARCH_OLDEST_VERSION=8.5.0 # the oldest Gloss supports (src/services/search/elastic/version.ts)
HEAP=512m
WAIT_SECONDS=${GLOSS_ENGINES_WAIT_SECONDS:-300}

# name flavor version http-port transport-port
ENGINE_SPECS=(
  "opensearch opensearch $OPENSEARCH_VERSION 9200 9300"
  "elasticsearch elasticsearch $ELASTICSEARCH_VERSION 9201 9301"
  "elasticsearch-oldest elasticsearch $ELASTICSEARCH_OLDEST_VERSION 9202 9302"
)
wanted=" ${GLOSS_ENGINES:-opensearch elasticsearch elasticsearch-oldest} "

if [ "$(id -u)" -eq 0 ]; then
  DIR=${GLOSS_ENGINES_DIR:-/var/cache/gloss-engines}
  RUNNER=gloss-engines
else
  DIR=${GLOSS_ENGINES_DIR:-$HOME/.cache/gloss/engines}
  RUNNER=$(id -un)
fi
RUN=$DIR/run

log() { echo "engines: $*"; }
as_runner() { if [ "$(id -un)" = "$RUNNER" ]; then "$@"; else runuser -u "$RUNNER" -- "$@"; fi; }
alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

stop_engine() { # name
  alive "$1" || return 0
  local pid
  pid=$(cat "$RUN/$1.pid")
  log "stopping $1 (pid $pid)"
  kill "$pid"
  for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  log "$1 (pid $pid) did not stop within a minute" >&2
  return 1
}

if [ "${1:-}" = "stop" ]; then
  for spec in "${ENGINE_SPECS[@]}"; do stop_engine "${spec%% *}"; done
  exit 0
fi
[ "$wanted" = " none " ] && { log "none wanted (GLOSS_ENGINES=none)"; exit 0; }

# The version number a port answers with ("" when nothing answers).
answering() {
  local root
  root=$(curl -s --max-time 3 "http://127.0.0.1:$1/" 2>/dev/null) || true
  sed -n 's/.*"number" *: *"\([^"]*\)".*/\1/p' <<<"$root" | head -n 1
}
green() { local health; health=$(curl -s --max-time 5 "http://127.0.0.1:$1/_cluster/health?wait_for_status=green&timeout=4s") || true; [[ $health == *'"status":"green"'* ]]; }
# Java 17 exactly: both engines need the SecurityManager, which Java 24 removed.
java17() { ls -d /usr/lib/jvm/java-17-openjdk-* 2>/dev/null | head -n 1; }

# Fast path: everything wanted already answers at the right version.
all_up=true
for spec in "${ENGINE_SPECS[@]}"; do
  read -r name _ version port _ <<<"$spec"
  [[ $wanted == *" $name "* ]] || continue
  [ "$(answering "$port")" = "$version" ] || { all_up=false; break; }
done

if [ "$all_up" = false ]; then
  missing=()
  [ -x "$(java17)/bin/javac" ] || missing+=(openjdk-17-jdk-headless) # javac: the stand-in plugin below
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
  command -v unzip >/dev/null 2>&1 || missing+=(unzip)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  JAVA_HOME=$(java17)
  export JAVA_HOME
  if [ "$(id -u)" -eq 0 ] && ! id "$RUNNER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$RUNNER"
  fi
  mkdir -p "$DIR" "$RUN"
  # One run at a time (services.sh may be run by several people on one machine).
  exec 9>"$DIR/.lock"
  flock 9
fi

M2=$DIR/m2
# Maven, quiet unless it fails.
maven() {
  local out
  out=$(mvn -q -B -Dstyle.color=never -Dmaven.repo.local="$M2" "$@" 2>&1) || { echo "$out" >&2; return 1; }
}
mvn_get() { maven dependency:get -Dartifact="$1" -Dtransitive=false; }
artifact_path() { # group artifact version
  echo "$M2/${1//.//}/$2/$3/$2-$3.zip"
}

# The integ-test zip of Elasticsearch leaves out the rest-root module from 8.9 on (GET / answers 405, and the
# clients need the root document): a stand-in plugin, compiled against the distribution's own jars, serves it.
add_root_standin() { # install dir, version
  local d=$1 v=$2 build
  if unzip -l "$d/lib/elasticsearch-$v.jar" org/elasticsearch/rest/action/RestMainAction.class >/dev/null 2>&1; then return 0; fi
  [ -d "$d/modules/rest-root" ] && return 0
  build=$(mktemp -d)
  "$JAVA_HOME/bin/javac" -nowarn --release 17 -cp "$d/lib/*" -d "$build" "$here/engines/RestRootPlugin.java"
  mkdir -p "$d/modules/rest-root-standin"
  (cd "$build" && "$JAVA_HOME/bin/jar" cf "$d/modules/rest-root-standin/rest-root-standin.jar" local)
  printf '%s\n' "description=GET / for the integ-test distribution (scripts/engines/RestRootPlugin.java)" "version=$v" \
    "name=rest-root-standin" "classname=local.restroot.RestRootPlugin" "java.version=17" "elasticsearch.version=$v" \
    "extended.plugins=" "has.native.controller=false" >"$d/modules/rest-root-standin/plugin-descriptor.properties"
  rm -rf "$build"
}

install_elasticsearch() { # version -> install dir
  local v=$1 d=$DIR/elasticsearch-$1
  [ -f "$d/.gloss-installed" ] && return 0
  log "installing Elasticsearch $v in $d"
  mvn_get "org.elasticsearch.distribution.integ-test-zip:elasticsearch:$v:zip"
  rm -rf "$d"
  unzip -q "$(artifact_path org.elasticsearch.distribution.integ-test-zip elasticsearch "$v")" -d "$DIR"
  add_root_standin "$d" "$v"
  touch "$d/.gloss-installed"
}

# The OpenSearch integ-test zip ships only transport-netty4. k-NN needs lang-painless; the search suites need
# analysis-common, reindex and mapper-extras: each module is assembled from its jars on Central.
opensearch_module() { # install dir, version, name, artifact, plugin class, extended plugins
  local d=$1 v=$2 name=$3 artifact=$4 class=$5 extended=$6 work=$DIR/modules/$2/$3
  mkdir -p "$work"
  cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>local</groupId><artifactId>$name-fetch</artifactId><version>1</version>
<dependencies><dependency><groupId>org.opensearch.plugin</groupId><artifactId>$artifact</artifactId><version>$v</version>
<exclusions><exclusion><groupId>org.opensearch</groupId><artifactId>*</artifactId></exclusion></exclusions>
</dependency></dependencies></project>
POM
  (cd "$work" && rm -rf jars && maven dependency:copy-dependencies -DoutputDirectory=jars -DincludeScope=runtime)
  mkdir -p "$d/modules/$name"
  cp "$work"/jars/*.jar "$d/modules/$name/"
  printf '%s\n' "description=$name (assembled from Maven Central jars)" "version=$v" "name=$name" "classname=$class" \
    "java.version=11" "opensearch.version=$v" "custom.foldername=" "extended.plugins=$extended" \
    "has.native.controller=false" >"$d/modules/$name/plugin-descriptor.properties"
}

install_opensearch() { # version
  local v=$1 d=$DIR/opensearch-$1 jar base
  [ -f "$d/.gloss-installed" ] && return 0
  log "installing OpenSearch $v with k-NN in $d"
  mvn_get "org.opensearch.distribution.integ-test-zip:opensearch:$v:zip"
  mvn_get "org.opensearch.plugin:opensearch-knn:$v.0:zip"
  rm -rf "$d"
  unzip -q "$(artifact_path org.opensearch.distribution.integ-test-zip opensearch "$v")" -d "$DIR"
  opensearch_module "$d" "$v" lang-painless lang-painless org.opensearch.painless.PainlessPlugin ""
  opensearch_module "$d" "$v" analysis-common analysis-common org.opensearch.analysis.common.CommonAnalysisPlugin lang-painless
  opensearch_module "$d" "$v" reindex reindex-client org.opensearch.index.reindex.ReindexPlugin ""
  opensearch_module "$d" "$v" mapper-extras mapper-extras-client org.opensearch.index.mapper.MapperExtrasPlugin ""
  # The server's lib/ has some of reindex's dependencies already: a second copy is jar hell.
  for jar in "$d"/modules/reindex/*.jar; do
    base=$(basename "$jar" | sed 's/-[0-9][0-9.]*\.jar$//')
    if ls "$d/lib/$base"-[0-9]*.jar >/dev/null 2>&1; then rm "$jar"; fi
  done
  maven dependency:copy -Dartifact="org.opensearch:opensearch-ssl-config:$v" -DoutputDirectory="$d/modules/reindex"
  printf 'grant {\n  permission java.lang.RuntimePermission "createClassLoader";\n  permission java.lang.RuntimePermission "getClassLoader";\n};\n' \
    >"$d/modules/lang-painless/plugin-security.policy"
  printf 'grant {\n  permission java.net.SocketPermission "*", "connect";\n};\n' >"$d/modules/reindex/plugin-security.policy"
  if ! out=$(OPENSEARCH_JAVA_HOME=$JAVA_HOME "$d/bin/opensearch-plugin" install --batch \
    "file://$(artifact_path org.opensearch.plugin opensearch-knn "$v.0")" 2>&1); then
    echo "$out" >&2
    return 1
  fi
  touch "$d/.gloss-installed"
}

configure() { # name flavor version http-port transport-port
  local name=$1 flavor=$2 version=$3 port=$4 transport=$5 d=$DIR/$2-$3 data=$DIR/data/$1-$3 file
  file=$d/config/$flavor.yml
  # Data per version: a node refuses data written by a newer one.
  mkdir -p "$data" "$DIR/logs/$name" "$d/config/jvm.options.d"
  {
    echo "# Written by scripts/engines.sh"
    echo "cluster.name: gloss-$name"
    echo "node.name: $name"
    echo "discovery.type: single-node"
    echo "network.host: 127.0.0.1"
    echo "http.port: $port"
    echo "transport.port: $transport"
    echo "path.data: $data"
    echo "path.logs: $DIR/logs/$name"
    # Tests only: a nearly full disk must not turn indexes read-only or leave shards unassigned.
    echo "cluster.routing.allocation.disk.threshold_enabled: false"
    if [ "$flavor" = elasticsearch ]; then
      echo "xpack.security.enabled: false"
      echo "xpack.ml.enabled: false"
    fi
  } >"$file"
  printf -- '-Xms%s\n-Xmx%s\n' "$HEAP" "$HEAP" >"$d/config/jvm.options.d/heap.options"
  chown -R "$RUNNER" "$d" "$data" "$DIR/logs/$name" "$RUN" 2>/dev/null || true
}

start() { # name flavor install-dir
  local name=$1 flavor=$2 d=$3
  if [ "$flavor" = elasticsearch ]; then
    as_runner env ES_JAVA_HOME="$JAVA_HOME" ES_TMPDIR="$DIR/tmp/$name" "$d/bin/elasticsearch" -d -p "$RUN/$name.pid" \
      >"$DIR/logs/$name.out" 2>&1 9>&-
  else
    as_runner env OPENSEARCH_JAVA_HOME="$JAVA_HOME" OPENSEARCH_TMPDIR="$DIR/tmp/$name" "$d/bin/opensearch" -d -p "$RUN/$name.pid" \
      >"$DIR/logs/$name.out" 2>&1 9>&-
  fi
}

started=()
for spec in "${ENGINE_SPECS[@]}"; do
  read -r name flavor version port transport <<<"$spec"
  [[ $wanted == *" $name "* ]] || continue
  found=$(answering "$port")
  [ "$found" = "$version" ] && continue
  if [ -n "$found" ]; then
    if alive "$name"; then
      stop_engine "$name" # an older install of ours
    else
      log "port $port answers version $found, not $flavor $version, and it is not ours: free the port" >&2
      exit 1
    fi
  fi
  if [ "$flavor" = elasticsearch ]; then install_elasticsearch "$version"; else install_opensearch "$version"; fi
  d=$DIR/$flavor-$version
  mkdir -p "$DIR/tmp/$name"
  configure "$name" "$flavor" "$version" "$port" "$transport"
  chown -R "$RUNNER" "$DIR/tmp/$name" 2>/dev/null || true
  log "starting $flavor $version on 127.0.0.1:$port"
  rm -f "$RUN/$name.pid"
  # Elasticsearch's -d returns once the node runs; the engines start side by side.
  start "$name" "$flavor" "$d" &
  started+=("$name:$flavor:$port:$!")
done

deadline=$(($(date +%s) + WAIT_SECONDS))
for entry in "${started[@]}"; do
  IFS=: read -r name flavor port launcher <<<"$entry"
  if ! wait "$launcher"; then
    log "$flavor ($name) did not start; $DIR/logs/$name.out and $DIR/logs/$name/:" >&2
    tail -n 30 "$DIR/logs/$name.out" "$DIR/logs/$name/gloss-$name.log" >&2 2>/dev/null || true
    exit 1
  fi
  until green "$port"; do
    # OpenSearch's launcher returns before the node writes its pid file.
    if { [ -f "$RUN/$name.pid" ] && ! alive "$name"; } || [ "$(date +%s)" -ge "$deadline" ]; then
      log "$flavor ($name) on port $port stopped or is not green after ${WAIT_SECONDS} s; the end of its log:" >&2
      tail -n 30 "$DIR/logs/$name/gloss-$name.log" >&2 2>/dev/null || true
      exit 1
    fi
    sleep 1
  done
done

where=()
for spec in "${ENGINE_SPECS[@]}"; do
  read -r name flavor version port _ <<<"$spec"
  [[ $wanted == *" $name "* ]] || continue
  label=$([ "$flavor" = opensearch ] && echo OpenSearch || echo Elasticsearch)
  where+=("$label $version at http://127.0.0.1:$port")
done
joined=$(printf ', %s' "${where[@]}")
log "${joined:2} (installed in $DIR)"
