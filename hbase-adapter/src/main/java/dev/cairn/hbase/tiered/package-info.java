/**
 * Decisions for a <em>tiered</em> store: one run of files ordered by sequence id, no levels, the
 * shape of HBase's default store engine. {@link dev.cairn.hbase.tiered.TieredDlcPolicy}
 * carries DLC (delay under high load, bursty part runs, bounds) and the cache-aware input choice
 * to such a store; the HBase adapter maps {@code HStoreFile}s to {@link
 * dev.cairn.hbase.tiered.StoreFile}s and back. Pure: no I/O, no clock but the one passed in.
 */
package dev.cairn.hbase.tiered;
