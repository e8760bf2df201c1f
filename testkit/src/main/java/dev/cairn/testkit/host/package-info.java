/**
 * Pieces shared by everything that runs a host server (a Cassandra node, a standalone HBase) in a
 * child JVM on 127.0.0.1: the adapters' install tests and the workload runner's host engines. JDK
 * only, no JUnit: the runner's jar carries this package.
 */
package dev.cairn.testkit.host;
