package dev.cairn.hbase;

import dev.cairn.hbase.tiered.StoreFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreConfigInformation;

/** Cairn's policy with a fault in its decision: modelling a store file throws. */
public class FaultyDecisionPolicy extends CairnCompactionPolicy {
  public FaultyDecisionPolicy(Configuration conf, StoreConfigInformation storeConfigInfo) {
    super(conf, storeConfigInfo);
  }

  @Override
  StoreFile model(int index, HStoreFile f, ServerLoad load) {
    throw new IllegalStateException("a fault the test put in the policy's decision");
  }
}
