# written by mk/deps.sh; delete to re-check
PKG_CFLAGS := 
PKG_LIBS := -luv -lpthread -ldl -lrt -lssl -lcrypto -lyaml -lcmark-gfm -lcmark-gfm-extensions  -lcmark-gfm-extensions -lpthread
