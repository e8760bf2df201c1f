/**
 * Pieces shared by everything that runs a host server (a Cassandra node, later an HBase server) in
 * a child JVM on 127.0.0.1: the adapters' install tests and the workload runner's host engines.
 * JDK only.
 */
package dev.cairn.childjvm;
