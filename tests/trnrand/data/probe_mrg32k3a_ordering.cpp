// One-off probe (NOT built by CMake; needs libcurand): checks the model of cuRAND's host MRG32K3A
// ordering (81920 threads = subsequences 2^76 steps apart, persistent per-thread states, offsets
// and reseeds as XORWOW's; docs/trnrand.md section 10) against libcurand for random sequences of
// u32, uniform double, normal double and log-normal double calls with random offsets and seeds.
// The model below is an independent plain implementation (3 x 3 matrix powers mod m).
//   g++ -std=c++17 -O2 -I/usr/local/cuda/include tests/trnrand/data/probe_mrg32k3a_ordering.cpp
//       -L/usr/local/cuda/lib64 -lcurand -Wl,-rpath,/usr/local/cuda/lib64 -o /tmp/probe && /tmp/probe 1 6
// Measured (cuRAND 10.4): "bad 0 / 1242759".
#include <curand.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include <cstdint>
#include <array>
typedef unsigned long long u64;
const u64 M1=4294967087ull, M2=4294944443ull;
typedef std::array<std::array<u64,3>,3> Mat;
Mat mul(const Mat&a,const Mat&b,u64 m){Mat c{};for(int i=0;i<3;i++)for(int j=0;j<3;j++){u64 s=0;for(int k=0;k<3;k++)s=(s+a[i][k]*b[k][j]%m)%m;c[i][j]=s;}return c;}
Mat A1(){Mat a{};a[0][1]=1;a[1][2]=1;a[2][0]=M1-810728;a[2][1]=1403580;return a;}
Mat A2(){Mat a{};a[0][1]=1;a[1][2]=1;a[2][0]=M2-1370589;a[2][2]=527612;return a;}
Mat I(){Mat a{};for(int i=0;i<3;i++)a[i][i]=1;return a;}
Mat pw2(Mat a,u64 m,int e){for(int i=0;i<e;i++)a=mul(a,a,m);return a;}
Mat pw(Mat a,u64 m,u64 n){Mat r=I();while(n){if(n&1)r=mul(a,r,m);a=mul(a,a,m);n>>=1;}return r;}
void app(const Mat&a,u64*v,u64 m){u64 t[3];for(int i=0;i<3;i++){u64 s=0;for(int k=0;k<3;k++)s=(s+a[i][k]*v[k]%m)%m;t[i]=s;}for(int i=0;i<3;i++)v[i]=t[i];}
struct MS{u64 s1[3],s2[3];};
MS init(u64 seed){MS s;for(int i=0;i<3;i++)s.s1[i]=s.s2[i]=12345;if(seed){u64 x1=(unsigned)seed^0x55555555u,x2=(unsigned)((seed>>32)^0xAAAAAAAAu);
 s.s1[0]=x1*12345%M1;s.s1[1]=x2*12345%M1;s.s1[2]=x1*12345%M1;s.s2[0]=x2*12345%M2;s.s2[1]=x1*12345%M2;s.s2[2]=x2*12345%M2;}return s;}
// returns r in [1, m1]
u64 step(MS&s){ u64 p1=(1403580*s.s1[1]+(M1-s.s1[0])*810728)%M1; s.s1[0]=s.s1[1];s.s1[1]=s.s1[2];s.s1[2]=p1;
 u64 p2=(527612*s.s2[2]+(M2-s.s2[0])*1370589)%M2; s.s2[0]=s.s2[1];s.s2[1]=s.s2[2];s.s2[2]=p2;
 return p1>p2? p1-p2 : p1-p2+M1; }
unsigned u32of(u64 r){ return (unsigned)((double)r*1.000000048662); }
void skip(MS&s,u64 n){Mat a=pw(A1(),M1,n),b=pw(A2(),M2,n);app(a,s.s1,M1);app(b,s.s2,M2);}
void skipe(MS&s,u64 k,int e){Mat a=pw(pw2(A1(),M1,e),M1,k),b=pw(pw2(A2(),M2,e),M2,k);app(a,s.s1,M1);app(b,s.s2,M2);}
#include <curand.h>
#include <cstdio>
#include <cmath>
#include <random>
#include <vector>
const u64 T=81920;
std::vector<MS> base;
void mkbase(u64 seed){ base.assign(T,MS{}); base[0]=init(seed); Mat a=pw2(A1(),M1,76),b=pw2(A2(),M2,76);
 for(u64 k=1;k<T;k++){base[k]=base[k-1];app(a,base[k].s1,M1);app(b,base[k].s2,M2);} }
std::vector<MS> at(u64 P){ auto st=base; u64 J=P/T,r=P%T; Mat a=pw(A1(),M1,J),b=pw(A2(),M2,J);
 for(u64 k=0;k<T;k++){app(a,st[k].s1,M1);app(b,st[k].s2,M2); if(k<r) step(st[k]);} return st;}
int main(int argc,char**argv){
 std::mt19937_64 rng(atoi(argv[1])); long bad=0,tot=0;
 for(int tr=0;tr<atoi(argv[2]);tr++){
  u64 seed=rng()%2?rng():rng()%100; mkbase(seed);
  curandGenerator_t g; curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MRG32K3A); curandSetPseudoRandomGeneratorSeed(g,seed);
  u64 P=rng()%3==0? rng()%(1ull<<40): rng()%300000; curandSetGeneratorOffset(g,P); auto st=at(P); u64 slot=P;
  for(int c=0;c<6;c++){
   int t=rng()%4; size_t n=rng()%3==0? rng()%200000+1: rng()%100+1; if(t>=2) n=(n+1)&~size_t(1);
   if(rng()%5==0){ if(rng()%2){P=rng()%300000; curandSetGeneratorOffset(g,P); slot=P; st=at(P);} else {seed=rng(); curandSetPseudoRandomGeneratorSeed(g,seed); mkbase(seed); st=at(slot);} }
   std::vector<unsigned> u(n); std::vector<double> d(n);
   if(t==0) curandGenerate(g,u.data(),n); if(t==1) curandGenerateUniformDouble(g,d.data(),n);
   if(t==2) curandGenerateNormalDouble(g,d.data(),n,0,1); if(t==3) curandGenerateLogNormalDouble(g,d.data(),n,0,1);
   const double NORM=2.3283065498378288e-10;
   if(t<2){ for(size_t i=0;i<n;i++){ u64 r=step(st[(slot+i)%T]); ++tot; if(t==0? u32of(r)!=u[i] : r*NORM!=d[i]) bad++; } slot+=n; }
   else { for(size_t i=0;i<n;i+=2){ auto&s=st[(slot+i/2)%T]; double x=step(s)*NORM, y=step(s)*NORM*2.0; double rr=sqrt(-2.0*log(x)); double a=sin(y*3.1415926535897932)*rr; if(t==3) a=exp(a); ++tot; if(a!=d[i]) bad++; } slot+=n/2; }
  }
  curandDestroyGenerator(g);
 }
 printf("bad %ld / %ld\n",bad,tot);
}
